// With `set -x` bash traces each term of a `[[ … ]]` as it evaluates it (execute_cmd.c, execute_cond_node:
// xtrace_print_cond_term): `+ [[ a == b* ]]` with the operands expanded, the quoted parts of a pattern (the right of
// `==`, `!=`, `=~`) with every character backslash-escaped (`"q r"` → `\q\ \r`), an empty operand as `''`, a lone
// word as `-n WORD`, a negated
// term with its `!`; terms `&&`/`||` skip are not traced. just-bash traced nothing for `[[`.
export default {
  title: 'set -x traces the terms of [[ ]]',
  upstream: 'src/interpreter/conditionals.ts (evaluateConditional): when xtrace is on, append PS4 + "[[ TERM ]]" to the command\'s stderr for each binary, unary and word term evaluated',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'async function Yt(e,t){switch(t.type){',
      replace:
        'async function __jbCondTrace(e,neg,...w){if(!e.state.options.xtrace)return;let p=await Ju(e),text=w.map(x=>x===""?"\'\'":x).join(" ");e.state.expansionStderr=(e.state.expansionStderr||"")+`${p}[[ ${neg?"! ":""}${text} ]]\\n`}' +
        'async function Yt(e,t,__n){switch(t.type){',
    },
    {
      find: 'else hr(t.operator)&&!r?s=await Hc(e,t.right):s=await se(e,t.right);if(hr(t.operator)){',
      replace:
        'else hr(t.operator)&&!r?s=await Hc(e,t.right):s=await se(e,t.right);if(e.state.options.xtrace){let pat=hr(t.operator)||t.operator==="=~",v="";' +
        'if(pat)for(let p of t.right.parts){let x=await se(e,{type:"Word",parts:[p]});v+=p.type==="SingleQuoted"||p.type==="DoubleQuoted"||p.type==="Escaped"?x.replace(/[\\s\\S]/g,"\\\\$&"):x}else v=s;' +
        'await __jbCondTrace(e,__n,n,t.operator,v)}if(hr(t.operator)){',
    },
    { find: 'case"CondUnary":{let n=await se(e,t.operand);', replace: 'case"CondUnary":{let n=await se(e,t.operand);await __jbCondTrace(e,__n,t.operator,n);' },
    {
      find: 'case"CondWord":return await se(e,t.word)!=="";default:return!1}}',
      replace: 'case"CondWord":{let v=await se(e,t.word);await __jbCondTrace(e,__n,"-n",v);return v!==""}default:return!1}}',
    },
    { find: ':!await Yt(e,t.operand);case"CondAnd"', replace: ':!await Yt(e,t.operand,t.operand.type!=="CondGroup"&&!__n);case"CondAnd"' },
  ],
};
