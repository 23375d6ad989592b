// An error in an arithmetic expansion (`$((1/0))`, `$((1 +))`, `$((08))`) is fatal to the command line it is on,
// not just to its command: bash prints `bash: line N: EXPR: MESSAGE (error token is "TOKEN")`, sets `$?` to 1 and
// drops the rest of that line, at the top level of the script, of an `eval`, a subshell or a command substitution,
// even when the expansion is inside a function or a `{ …; }` group; the next line runs. just-bash went on with the
// next command of the same line and swallowed the error inside a group. Bash's manual, "Shell Arithmetic"; bash's
// sources, expr.c (evalerror: the "EXPR: MESSAGE (error token is …)" text, then a jump to the top level).
export default {
  title: 'an arithmetic expansion error ends its command line, with bash\'s message',
  upstream: 'src/parser/parser.ts Parser.parseScript: mark a statement followed on the same line by another (no newline between) as joinsNext; src/interpreter/interpreter.ts executeScript: after an ArithmeticError skip the statements joined to the failed one; src/interpreter/subshell-group.ts executeGroup: rethrow ArithmeticError; src/interpreter/expansion.ts expandPart "ArithmeticExpansion": prefix the message with "line N: EXPR: " and name the error token',
  file: 'dist/bundle/index.js',
  edits: [
    {
      // A fraction (`3.5`) is an evaluation error like the others, not a parse failure of the whole script.
      find: 'if(t[s]==="."&&/[0-9]/.test(t[s+1]))throw new ce(`${c}.${t[s+1]}...: syntax error: invalid arithmetic operator`);',
      replace: 'if(t[s]==="."&&/[0-9]/.test(t[s+1])){let _r=t.slice(s).trim();return{expr:{type:"ArithSyntaxError",errorToken:_r,message:`syntax error: invalid arithmetic operator (error token is "${_r}")`},pos:t.length}}',
    },
    {
      // bash's words for an arithmetic error: `line N: [LABEL]EXPR: MESSAGE (error token is "TOKEN")`, the token
      // being the rest of the expression from where evaluation failed (for a division, the divisor on).
      find: 'function Yp(e,t,n){',
      replace: 'function _jbArithError(e,label,x,err){if(err._plain)return`bash: line ${e.state.currentLine}: ${err.message}\\n`;let m=err.message,k;if(/^(division by 0|exponent less than 0)$/.test(m))k=x.slice(Math.max(x.lastIndexOf(m[0]==="d"?"/":"*"),x.lastIndexOf(m[0]==="d"?"%":"-"))+1).replace(/^\\s+/,"");else if(m==="value too great for base")k=(/(^|[^\\w#])(\\d+#?\\w*)/.exec(x)??[])[2],k&&(x=k);else{let g=/\\(error token is "(.*)"\\)$/.exec(m),at=g?x.lastIndexOf(g[1]):-1;g&&g[1]&&at>=0&&(m=m.slice(0,g.index)+`(error token is "${x.slice(at)}")`)}return`bash: line ${e.state.currentLine}: ${label}${x}: ${m}${k!==void 0&&!/error token is/.test(m)?` (error token is "${k}")`:""}\\n`}function Yp(e,t,n){',
    },
    {
      // An arithmetic command reports its error the same way, as `((: EXPR : …`, and returns 1.
      find: 'catch(n){return D(`bash: arithmetic expression: ${n.message}',
      replace: 'catch(n){if(!(n instanceof ce))throw n;return D(_jbArithError(this.ctx,"((: ",`${t.expression.originalText??""} `,n),1);return D(`bash: arithmetic expression: ${n.message}',
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
