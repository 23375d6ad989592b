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
      // The serializer keeps such statements on one line (spritzer rewrites scripts through it).
      find: 'function gn(e){return e.statements.map(wl).join(`\n`)}',
      replace: 'function gn(e){return e.statements.map((s,i,a)=>{let x=wl(s);return x+(i===a.length-1?"":s.joinsNext&&!JSON.stringify(s).includes(\'"HereDoc"\')?s.background?" ":"; ":"\\n")}).join("")}',
    },
    {
      find: 'o&&t.push(o),this.check(E.HEREDOC_CONTENT)&&this.processHeredocs(),this.skipSeparators(!1),',
      replace: 'o&&t.push(o);let _p=this.pos;this.check(E.HEREDOC_CONTENT)&&this.processHeredocs(),this.skipSeparators(!1),o&&!this.check(E.EOF)&&!this.tokens.slice(_p,this.pos).some(k=>k.type===E.NEWLINE)&&(o.joinsNext=!0),',
    },
    {
      find: 'for(let s of t.statements)try{let i=await this.executeStatement(s);',
      replace: 'let _sk=!1;for(let s of t.statements)try{if(_sk){_sk=!!s.joinsNext;continue}let i=await this.executeStatement(s);',
    },
    {
      find: 'if(i instanceof ce){r.append(',
      replace: 'if(i instanceof ce){_sk=!!s.joinsNext;r.append(',
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
      find: 'return String(await Y(e,t.expression.expression,!0))}case"BraceExpansion":',
      replace: 'return String(await Y(e,t.expression.expression,!0))}catch(_e){if(_e instanceof ce&&!_e._where){let _x=(t.expression.originalText??"").replace(/^\\s+/,""),_m=_e.message,_k=/^(division by 0|exponent less than 0)$/.test(_m)?_x.slice(Math.max(_x.lastIndexOf(_m[0]==="d"?"/":"*"),_x.lastIndexOf(_m[0]==="d"?"%":"-"))+1).replace(/^\\s+/,""):_m==="value too great for base"?(/(^|[^\\w#])(\\d+#?\\w*)/.exec(_x)??[])[2]:void 0;_m==="value too great for base"&&_k&&(_x=_k),_e._where=!0,_e.stderr=`bash: line ${e.state.currentLine}: ${_x}: ${_m}${_k!==void 0&&!/error token is/.test(_m)?` (error token is "${_k}")`:""}\n`}throw _e}case"BraceExpansion":',
    },
  ],
};
