// A non-interactive bash starts every error message of its own (a builtin's, a command it cannot find or run, an
// assignment's, an expansion's) with where it happened: `NAME: line N: `, NAME being the file the failing code was
// read from (BASH_SOURCE[0]: the script of `bash FILE`, a sourced file, `environment` for a function a `bash -c`
// string defined) or else `$0` (`bash`). bash's error.c (get_name_for_error, error_prolog, builtin_error). getopts
// words its own messages with `$0` alone (`bash: illegal option -- x`, `t.sh: illegal option -- x`).
// just-bash wrote `bash: ` for most of them (`bash: cd: x: No such file or directory`, `bash: x: command not found`,
// `bash: x: unbound variable`), and `bash: line N: ` for the few that had a line, whatever the file.
// The place is added where a message leaves its maker: a builtin's result (and a command-lookup failure) in
// runCommand, an assignment's error in executeSimpleCommand, a word expansion's with its command, a thrown error (unbound variable, bad substitution,
// readonly; not an execution limit's) in executeStatement, innermost first; a line that already names its place is left as it is, but for
// its NAME. A command standing in for a builtin (an embedder's `wait`) that speaks as it (`bash: wait: …`) is
// placed too. A state.scriptFile (the shell command of `bash FILE` passes it) names a function's file.
export default {
  title: 'error messages start with the place bash gives them: NAME: line N:',
  upstream: 'src/interpreter/interpreter.ts (runCommand, executeSimpleCommand, executeStatement): prefix the shell\'s own error messages with get_name_for_error() and "line N: " as bash\'s error.c does, instead of a fixed "bash: "',
  file: 'dist/bundle/index.js',
  edits: [
    {
      // The name and the rewrite; runCommand's results of builtins and of a failed command lookup.
      find: 'async runCommand(t,n,r,s,i=!1,o=!1,a=-1,l=!1){let c={ctx:this.ctx,',
      replace:
        'async runCommand(t,...A){return __jbPlaceResult(this.ctx,await this.__jbRunCommand(t,...A),t)}' +
        'async __jbRunCommand(t,n,r,s,i=!1,o=!1,a=-1,l=!1){let c={ctx:this.ctx,',
    },
    {
      find: 'function fe(e,t,n="bash"){',
      replace:
        'function __jbPlaceName(e){let s=e.state;if(s.funcNameStack?.length){let f=s.sourceStack?.[0];if(f!==void 0)return f==="main"?s.scriptFile??"environment":f}return s.currentSource&&s.currentSource!=="main"?s.currentSource:s.env.get("0")??"bash"}' +
        'function __jbPlace(e,t){if(typeof t!="string"||!t.includes("bash: "))return t;let n=__jbPlaceName(e),l=e.state.currentLine;' +
        'return t.replace(/^bash: (?!-c: )((?:eval: )?line \\d+: |(?:illegal option|option requires an argument) -- )?/gm,(m,h)=>h?`${/^(?:illegal|option)/.test(h)?e.state.env.get("0")??"bash":n}: ${h}`:l>0?`${n}: line ${l}: `:`${n}: `)}' +
        'function __jbPlaceResult(e,v,t){if(!v?.stderr?.includes("bash: "))return v;' +
        'if(t!==void 0&&!(Fn.has(t)&&!["eval","source",".","exec"].includes(t)&&!e.state.functions.has(t)||v.exitCode>=126&&v.stderr.startsWith(`bash: ${t}: `)||Fn.has(/^bash: ([^:\\s]+): /.exec(v.stderr)?.[1])))return v;' +
        'if(!Array.isArray(v.outputOrder))return{...v,stderr:__jbPlace(e,v.stderr)};let o=[...v.outputOrder],j=0,s="";for(let q=1;q<o.length;q+=2){let x=__jbPlace(e,v.stderr.slice(j,j+o[q]));j+=o[q],o[q]=x.length,s+=x}return{...v,stderr:s+__jbPlace(e,v.stderr.slice(j)),outputOrder:o}}' +
        'function fe(e,t,n="bash"){',
    },
    {
      // A command of assignments only: its errors (readonly, bad subscript).
      find: 'return await this.executeSimpleCommandInner(t,n,s=>{r=s})}',
      replace: 'let v=await this.executeSimpleCommandInner(t,n,s=>{r=s});return t.name?v:__jbPlaceResult(this.ctx,v)}',
    },
    {
      // The messages of the expansions of a command's words (`echo "$(< nope)"`, `${a[-5]}`).
      find: 'stderr:this.ctx.state.expansionStderr+v.stderr}',
      replace: 'stderr:__jbPlace(this.ctx,this.ctx.state.expansionStderr)+v.stderr}',
    },
    {
      // A thrown error's message, placed by the innermost statement it passes.
      find: 'async executeStatement(t){',
      replace: 'async executeStatement(t){try{return await this.__jbStatement(t)}catch(e){typeof e?.stderr=="string"&&!(e instanceof x)&&(e.stderr=__jbPlace(this.ctx,e.stderr));throw e}}async __jbStatement(t){',
    },
    {
      // `bash FILE`: a function's messages name FILE.
      find: 'hashTable:this.state.hashTable,groupStdin:sy(',
      replace: 'hashTable:this.state.hashTable,scriptFile:u.scriptFile,groupStdin:sy(',
    },
  ],
};
