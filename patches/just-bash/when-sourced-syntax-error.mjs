// bash reads a sourced file one complete command at a time (parse_and_execute), so when line N of the file does not
// parse, the commands before it run first, then `FILE: line N: syntax error near unexpected token `T'` and the line
// itself (or `FILE: line N: syntax error: unexpected end of file`), and `source`/`.` returns 2: the caller goes on
// (under `set -e` bash prints the first line only and leaves). FILE is the name as given. just-bash parsed the whole
// file first, ran nothing, printed `bash: FILE: Parse error at N:C: …` and returned 1. The embedder words the error
// (`state.recoverSyntax(text, where, firstLine, extglob, errexit)` gives the commands to run first, the message and
// the status, or null), as it does for a `bash -c` script; a stray `)` or `}` that just-bash keeps as a statement
// with a deferred error is met the same way. An error inside a `$(…)` (which bash parses with the command holding it)
// ends the whole shell after its message, as bash 5.2 does: status 1 for a script file, 127 for a `-c` string.
export default {
  title: 'a sourced file with a syntax error runs the commands before it, then bash\'s message, status 2',
  upstream: 'src/interpreter/builtins/source.ts: on a ParseException or LexerError, run the complete commands before the failing one, then report "FILE: line N: …" and return 2',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'e.state.currentSource=r;(e.state.spzSrcFrames??=[]).push({src:r,line:e.state.currentLine,d:e.state.funcNameStack?.length??0});try{let c=Ge(i),u;try{u=await _jbReturnTrap(e,await e.executeScript(c))}',
      replace:
        'e.state.currentSource=r;(e.state.spzSrcFrames??=[]).push({src:r,line:e.state.currentLine,d:e.state.funcNameStack?.length??0});try{let c,u,_sx=null;try{c=Ge(i);if(!c.statements.some(_s=>_s.deferredError))_sx=void 0}catch(_pe){if(_pe?.name!=="ParseException"&&!(_pe instanceof Ye)||!e.state.recoverSyntax)throw _pe;c=null}' +
        'if(_sx===null&&e.state.recoverSyntax&&(_sx=e.state.recoverSyntax(i,`${r}: `,1,!!e.state.shoptOptions?.extglob,!!e.state.options.errexit&&!e.state.inCondition)))c=Ge(_sx.prefix);else if(!c)c=Ge(i);' +
        'try{u=await _jbReturnTrap(e,await e.executeScript(c));if(_sx?.leavesShell)throw Object.assign(new G(1,u.stdout,u.stderr+_sx.stderr),{spzShellStatus:e.state.options.errexit||e.state.scriptFile!==void 0?1:127});_sx&&(u={...u,stderr:u.stderr+_sx.stderr,exitCode:_sx.status})}',
    },
  ],
};
