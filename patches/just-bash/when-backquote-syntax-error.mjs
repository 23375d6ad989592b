// bash parses a backquoted command substitution (`` `…` ``) only when it runs it, a command at a time, as a
// subshell: a syntax error inside is met then. The commands before it run, then
// `NAME: command substitution: line N: syntax error near unexpected token `T'` and the text's failing line, and the
// substitution's status is 2; the command holding it goes on (`x=`echo a; fi`; echo $?` prints 2, `set -e` then
// ends the shell). NAME is where the code was read (`bash`, the script file, `environment` for a function a
// `bash -c` string defined); N counts from the line the statement ends on. just-bash parsed the text with the rest
// of the script and refused the whole script. The embedder words the error (`state.recoverSyntax`, as for a
// sourced file); the text is kept as written so that a script printed back (a function's body) shows it.
// A `$(…)` is parsed with the script, as bash 5.2 does, and stays a syntax error of the script.
export default {
  title: 'a syntax error inside backquotes is met when the substitution runs: its message, status 2, the script goes on',
  upstream: 'src/parser/command-parser.ts parseBacktickSubstitution: keep the text of a body that does not parse; src/interpreter/expansion.ts: run the complete commands before the error in the subshell, then report "command substitution: line N: …" with status 2; src/serializer: print such a body as written',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'let c=r().parse(a);return{part:M.commandSubstitution(c,!0),endIndex:o+1}',
      replace:
        'let c;try{c=r().parse(a)}catch(_pe){if(_pe?.name!=="ParseException"&&!(_pe instanceof Ye))throw _pe;c=Object.assign(M.script([]),{spzBadText:a,spzBadRaw:e.slice(t+1,o)})}return{part:M.commandSubstitution(c,!0),endIndex:o+1}',
    },
    {
      // Printed back as written (the two serializers: a word's part, a double-quoted part).
      find: 'case"CommandSubstitution":return e.legacy?`\\`${gn(e.body)}\\``:`$(${gn(e.body)})`;case"ArithmeticExpansion":return`$((${e.expression.originalText??pe(e.expression.expression)}))`;case"ProcessSubstitution"',
      replace: 'case"CommandSubstitution":return e.legacy?`\\`${e.body.spzBadRaw??gn(e.body)}\\``:`$(${gn(e.body)})`;case"ArithmeticExpansion":return`$((${e.expression.originalText??pe(e.expression.expression)}))`;case"ProcessSubstitution"',
    },
    {
      find: 'case"CommandSubstitution":return e.legacy?`\\`${gn(e.body)}\\``:`$(${gn(e.body)})`;case"ArithmeticExpansion":return`$((${e.expression.originalText??pe(e.expression.expression)}))`;default:',
      replace: 'case"CommandSubstitution":return e.legacy?`\\`${e.body.spzBadRaw??gn(e.body)}\\``:`$(${gn(e.body)})`;case"ArithmeticExpansion":return`$((${e.expression.originalText??pe(e.expression.expression)}))`;default:',
    },
    {
      // When it runs: the commands before the error make the body, the message and status 2 follow them.
      find: 'case"CommandSubstitution":{let s=Wl(t.body);',
      replace:
        'case"CommandSubstitution":{let _bx=null;if(t.body.spzBadText!==void 0){_bx=e.state.recoverSyntax?.(t.body.spzBadText,`${__jbPlaceName(e)}: command substitution: `,e.state.currentLine+((e.state.__jbStmtText??"").split("\\n").length-1),!!e.state.shoptOptions?.extglob,!1)??{prefix:"",stderr:`${__jbPlaceName(e)}: command substitution: syntax error\\n`,status:2};t={...t,body:Ge(_bx.prefix)}}let s=Wl(t.body);',
    },
    {
      find: 'let p=await e.executeScript(t.body).finally(()=>{e.state.options.errexit=_ee}),h=p.exitCode,',
      replace: 'let p=await e.executeScript(t.body).finally(()=>{e.state.options.errexit=_ee});_bx&&(p={...p,stderr:p.stderr+_bx.stderr,exitCode:_bx.status});let h=p.exitCode,',
    },
    {
      // Its message already names its place: a command's messages are placed as they leave it, this one as it is.
      find: 'return t.replace(/^bash: (?!-c: )(',
      replace: 'return t.replace(/^bash: (?!-c: |command substitution: )(',
    },
  ],
};
