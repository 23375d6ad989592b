// An error in an arithmetic expansion (`$((1/0))`, `$((1 +))`, `$((08))`) is reported as bash words it: `bash: line
// N: EXPR: MESSAGE (error token is "TOKEN")`, status 1, even when the expansion is inside a function or a `{ …; }`
// group; a fraction (`3.5`) is such an error, and an arithmetic command `(( … ))` reports its own as `((: EXPR : …`.
// Dropping the rest of the line is expansion-error-discards-line's; passing the error up through compound commands
// is expansion-error-ends-shell's. just-bash printed `1`/`0` for a broken expression and swallowed the error inside
// a group. Bash's manual, "Shell Arithmetic"; bash's sources, expr.c (evalerror: the "EXPR: MESSAGE (error token is
// …)" text).
export default {
  title: 'an arithmetic expansion error says what bash says',
  upstream: 'src/parser/arithmetic-parser.ts: a fraction is an ArithSyntaxError; src/interpreter/interpreter.ts executeArithmeticCommand: report "((: EXPR : MESSAGE"; src/ast/serializer.ts: write an arithmetic command as read; src/interpreter/expansion.ts expandPart "ArithmeticExpansion": prefix the message with "line N: EXPR: " and name the error token',
  file: 'dist/bundle/index.js',
  edits: [
    {
      // A fraction (`3.5`) is an evaluation error like the others, not a parse failure of the whole script.
      find: 'if(t[s]==="."&&/[0-9]/.test(t[s+1]))throw new ce(`${c}.${t[s+1]}...: syntax error: invalid arithmetic operator`);',
      replace: 'if(t[s]==="."&&/[0-9]/.test(t[s+1])){let _r=t.slice(s).trim();return{expr:{type:"ArithSyntaxError",errorToken:_r,message:`syntax error: invalid arithmetic operator (error token is "${_r}")`},pos:t.length}}',
    },
    {
      // bash's words for an arithmetic error: `line N: [LABEL]EXPR: MESSAGE (error token is "TOKEN")`, the token
      // being the rest of the expression from where evaluation failed (for a division, the divisor on); for a number
      // too great for its base, EXPR runs up to that number and the token is the number (`1 + 08: … "08"`).
      find: 'function Yp(e,t,n){',
      replace: 'function _jbArithError(e,label,x,err){if(err._plain)return`bash: line ${e.state.currentLine}: ${err.message}\\n`;let m=err.message,k;if(/^(division by 0|exponent less than 0)$/.test(m))k=x.slice(Math.max(x.lastIndexOf(m[0]==="d"?"/":"*"),x.lastIndexOf(m[0]==="d"?"%":"-"))+1).replace(/^\\s+/,"");else if(m==="value too great for base"){let re=/(^|[^\\w#])(\\d+#[\\w@]+|0\\d+)/g,g,dv=(c,b)=>/\\d/.test(c)?+c:/[a-z]/.test(c)?c.charCodeAt(0)-87:/[A-Z]/.test(c)?c.charCodeAt(0)-(b>36?29:55):c==="@"?62:c==="_"?63:99;for(;g=re.exec(x);){let w=g[2],h=w.indexOf("#"),b=h<0?8:+w.slice(0,h);if(h<0?/[89]/.test(w):b<2||b>64||[...w.slice(h+1)].some(c=>dv(c,b)>=b)){k=w,x=x.slice(0,g.index+g[1].length+w.length);break}}}else{let g=/\\(error token is "(.*)"\\)$/.exec(m),at=g?x.lastIndexOf(g[1]):-1;g&&g[1]&&at>=0&&(m=m.slice(0,g.index)+`(error token is "${x.slice(at)}")`)}return`bash: line ${e.state.currentLine}: ${label}${x}: ${m}${k!==void 0&&!/error token is/.test(m)?` (error token is "${k}")`:""}\\n`}function Yp(e,t,n){',
    },
    {
      // An arithmetic command reports its error the same way, as `((: EXPR : …`, and returns 1.
      find: 'catch(n){return D(`bash: arithmetic expression: ${n.message}',
      replace: 'catch(n){if(!(n instanceof ce))throw n;return D(_jbArithError(this.ctx,"((: ",(t.expression.originalText??"").replace(/^\\s+/,""),n),1);return D(`bash: arithmetic expression: ${n.message}',
    },
    {
      // The serializer writes an arithmetic command as it was read, not from its tree (which drops what is wrong).
      find: 'function op(e){return`((${pe(e.expression.expression)}))',
      replace: 'function op(e){return`((${e.expression.originalText??pe(e.expression.expression)}))',
    },
    {
      // Words left over after a whole expression: "syntax error in expression" when they start with an operand.
      find: 'message:`${o}: syntax error: invalid arithmetic operator (error token is "${o}")`}}}',
      replace: 'message:`${/^[\\w$]/.test(o)?"syntax error in expression":"syntax error: invalid arithmetic operator"} (error token is "${o}")`}}}',
    },
    {
      find: 'case"ArithmeticExpansion":{let s=t.expression.originalText;',
      replace: 'case"ArithmeticExpansion":try{let s=t.expression.originalText;',
    },
    {
      find: '}case"BraceExpansion":{let s=[];for(let i of t.items)',
      replace: '}catch(_e){throw _e instanceof ce&&!_e._where&&(_e._where=!0,_e.stderr=_jbArithError(e,"",(t.expression.originalText??"").replace(/^\\s+/,""),_e)),_e}case"BraceExpansion":{let s=[];for(let i of t.items)',
    },
  ],
};
