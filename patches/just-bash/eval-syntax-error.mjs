// A syntax error in `eval`'s text is met as bash meets it, status 2: bash runs the text a command at a time, so the
// complete lines before the error run first; then `bash: eval: line N: syntax error near unexpected token `T'` and
// the line itself (at the end of the text: `bash: syntax error: unexpected end of file`, or the open quote's
// `unexpected EOF while looking for matching …`). Bash's manual, "Bourne Shell Builtins" (eval); just-bash printed
// its parser's own words (or, for an open quote, ended the script) and returned 1 without running anything.
// Line N counts from the line the eval's statement ends on (an eval on line 1 whose text has one newline ends on
// line 2): a token error on the text's line n is line END+n-1, the end of the text END+its line count, an open
// quote END+(its line-1)+the text's newlines, as bash 5.2 prints them; each message takes the place's name.
// The embedder words every error but an open quote's (`state.recoverSyntax`, as for a sourced file: the commands
// before the error, bash's message, which names `newline` after `NAME (`; under `set -e` its first line only). One
// inside a `$(…)` ends the whole shell after its message, as bash 5.2 does (status 1 for a script file, 127 for `-c`).
export default {
  title: 'eval meets a syntax error as bash does: the lines before it run, bash\'s words, status 2',
  upstream: 'src/interpreter/builtins/eval.ts: on a ParseException or LexerError run the lines before the failing one, then report "eval: line N: MESSAGE" and the line (or the end-of-file message), exit status 2',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'async function Is(e,t,n,r=!1){',
      replace: 'async function _jbEvalSyntax(e,i,l,_E){let _h=!/unexpected EOF while looking for matching .["\'`]\'/.test(l.message)&&e.state.recoverSyntax?.(i,"bash: eval: ",_E,!!e.state.shoptOptions?.extglob,!!e.state.options.errexit&&!e.state.inCondition);if(_h){let r={stdout:"",stderr:"",exitCode:0};_h.prefix.trim()&&(r=await e.executeScript(Ge(_h.prefix)));if(_h.leavesShell)throw Object.assign(new G(1,r.stdout,r.stderr+__jbPlace(e,_h.stderr)),{spzShellStatus:e.state.options.errexit||e.state.scriptFile!==void 0?1:127});return{...r,stderr:r.stderr+__jbPlace(e,_h.stderr),exitCode:_h.status}}let m=/^Parse error at (\\d+):\\d+: (.*)$/s.exec(l.message),n=m?Number(m[1]):l.line??1,w=m?m[2]:l.message.replace(/^line \\d+: /,""),nl=i.split("\\n").length-1,E=_E,msg=l.token?.type==="EOF"&&!/unexpected EOF/.test(w)?`bash: eval: line ${E+nl+(i.endsWith("\\n")?0:1)}: syntax error: unexpected end of file\\n`:/^syntax error near/.test(w)?`bash: eval: line ${E-1+n}: ${w}\\nbash: eval: line ${E-1+n}: \\`${i.split("\\n")[n-1]??""}\'\\n`:`bash: eval: line ${E+n-1+nl}: ${w}\\n`,r={stdout:"",stderr:""},pre=i.split("\\n").slice(0,n-1).join("\\n");if(pre.trim()){let a;try{a=Ge(pre)}catch{}a&&(r=await e.executeScript(a))}return L(r.stdout,r.stderr+__jbPlace(e,msg),2)}async function Is(e,t,n,r=!1){let _jbE=e.state.currentLine+((e.state.__jbStmtText??"").split("\\n").length-1);',
    },
    {
      find: 'if(l.name==="ParseException")return D(`bash: eval: ${l.message}\n`)',
      replace: 'if(l.name==="ParseException"||l instanceof Ye)return await _jbEvalSyntax(e,i,l,_jbE)',
    },
    {
      // The statement being run: an eval's line numbers count from the line its statement ends on.
      find: 'this.ctx.state.errexitSafe=!1;let n=new Vt(this.ctx.executionScope,"statement");',
      replace: 'this.ctx.state.errexitSafe=!1,this.ctx.state.__jbStmtText=t.sourceText;let n=new Vt(this.ctx.executionScope,"statement");',
    },
    {
      // A stray `)` or `}` is reported when its statement runs: it keeps the line it stood on.
      find: 'return this.advance(),M.statement([M.pipeline([M.simpleCommand(null,[],[],[])])],[],!1,{message:r,token:n})',
      replace: 'let _l=this.current().line;return this.advance(),Object.assign(M.statement([M.pipeline([M.simpleCommand(null,[],[],[])])],[],!1,{message:r,token:n}),{line:_l})',
    },
  ],
};
