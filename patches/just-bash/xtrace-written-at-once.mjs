// bash writes a command's `set -x` trace to its stderr before it runs the command, so a function's trace line
// (`+ greet world`) comes before the traces and output of the commands inside it. The shell engine gives each
// top-level command redirections to its output sinks (src/server/machines/memory/shell/output-sink.ts): what the
// command writes there is delivered at once, while its trace joined the command's result and was delivered when the
// statement (or, in a nested `bash FILE`, the whole script) ended: after the function's own output. A command whose
// fd 2 goes to the shell's own stderr sink (a redirection to a path under `state.hiddenRedirections` among its first
// two, which the engine puts first) now writes its trace there before it runs; so does an assignment alone's.
// A compound command the engine did not redirect (a loop, a `case` at the top level) has its inner commands
// redirected instead: the head of a `for` or a `case` it traces goes to the sink they name.
const sink =
  'function __jbBodySink(e,b){for(let s of b??[])for(let p of s.pipelines??[])for(let c of p.commands??[]){let z=__jbTraceSink(e,c.redirections);if(z)return z}return null}' +
  'function __jbTraceSink(e,r){let h=e.state.hiddenRedirections;if(!h||!r)return null;for(let d of r.slice(0,2)){let p=d.target?.parts;' +
  'if(d.fd===2&&d.operator===">|"&&p?.length===1&&p[0].type==="Literal"&&p[0].value.startsWith(h))return p[0].value}return null}';
export default {
  title: 'an xtrace line reaches the exec\'s stderr before the command it traces runs',
  upstream: 'src/interpreter/interpreter.ts executeSimpleCommandInner: write the xtrace text to the shell\'s stderr before running the command (just-bash returns it with the command\'s result)',
  file: 'dist/bundle/index.js',
  edits: [
    { find: 'function am(e){', replace: `${sink}function am(e){` },
    {
      find: 'let v,k=null;try{let Z0=this.ctx.state.stdinClosed;',
      replace: 'if(!_po&&o+S){let Zt=__jbTraceSink(this.ctx,t.redirections);Zt&&(await this.ctx.fs.appendFile(Zt,o+S),o="",S="")}let v,k=null;try{let Z0=this.ctx.state.stdinClosed;',
    },
    {
      // an assignment alone: its trace (when its expansions wrote no message, which the result places on its line)
      find: 'let V=L("","",__jbS),q=await rn(this.ctx,V,t.redirections,R.targets,R.dupSources,R.standardRoutes);$.finish();let P=(this.ctx.state.expansionStderr||"")+o;this.ctx.state.expansionStderr="";',
      replace: 'let V=L("","",__jbS),q=await rn(this.ctx,V,t.redirections,R.targets,R.dupSources,R.standardRoutes);$.finish();let P=(this.ctx.state.expansionStderr||"")+o;this.ctx.state.expansionStderr="";let Zt=P===o&&o&&__jbTraceSink(this.ctx,t.redirections);Zt&&(await this.ctx.fs.appendFile(Zt,P),P="");',
    },
    {
      find: '__jbH&&n.append("",await Ju(e)+__jbH);',
      replace: 'if(__jbH){let Zh=await Ju(e)+__jbH,Zt=__jbBodySink(e,t.body);Zt?await e.fs.appendFile(Zt,Zh):n.append("",Zh)}',
    },
    {
      find: 'let n=new on(e),r=0;e.state.options.xtrace&&n.append("",`${await Ju(e)}case ${_jbTraceWord(t.word)} in\n`);',
      replace: 'let n=new on(e),r=0;if(e.state.options.xtrace){let Zh=`${await Ju(e)}case ${_jbTraceWord(t.word)} in\n`,Zt=__jbBodySink(e,t.items?.flatMap(a=>a.body??[]));Zt?await e.fs.appendFile(Zt,Zh):n.append("",Zh)}',
    },
  ],
};
