// FUNCNAME, BASH_SOURCE and BASH_LINENO describe one call stack, innermost frame first, as bash's manual gives them
// ("Bash Variables"): a function call is a frame (its name, the file it was defined in — `environment` for one a
// `bash -c` string defined — and the line it was called from), so is each `source`/`.` (named `source`, the file
// read, the line of the command), and a script run as `bash FILE` has a bottom frame `main` (FILE, line 0). FUNCNAME
// exists only while a function runs; BASH_SOURCE always (`${BASH_SOURCE[0]}` is the file being read).
// just-bash listed function frames only, named a script's file `main`, and left BASH_SOURCE empty outside functions.
export default {
  title: 'FUNCNAME, BASH_SOURCE and BASH_LINENO as one call stack with source and main frames',
  upstream: 'src/interpreter/builtins/source.ts: push a "source" frame; src/interpreter/expansion (FUNCNAME/BASH_SOURCE/BASH_LINENO): read one frame list (functions, sources, and the script\'s "main" frame) instead of the function stacks alone',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'function K(e,t){return t==="FUNCNAME"?(e.state.funcNameStack??[]).map((i,o)=>[o,i]):t==="BASH_LINENO"?(e.state.callLineStack??[]).map((i,o)=>[o,String(i)]):t==="BASH_SOURCE"?(e.state.sourceStack??[]).map((i,o)=>[o,i]):',
      replace:
        'function __jbFrames(e){let s=e.state,fn=s.funcNameStack??[],n=fn.length,S=s.spzSrcFrames??[],out=[];s.scriptFile!==void 0&&out.push({name:"main",src:s.scriptFile,line:0});' +
        'for(let k=0;k<=n;k++){for(let f of S)f.d===k&&out.push({name:"source",src:f.src,line:f.line});if(k<n){let i=n-1-k,src=s.sourceStack?.[i]??"main";src==="main"&&(src=s.scriptFile??"environment");out.push({name:fn[i],src,line:s.callLineStack?.[i]??0})}}return out.reverse()}' +
        'function __jbStack(e,t){let f=__jbFrames(e);return t==="FUNCNAME"?(e.state.funcNameStack?.length?f.map(x=>x.name):[]):t==="BASH_LINENO"?f.map(x=>String(x.line)):f.map(x=>x.src)}' +
        'function K(e,t){return t==="FUNCNAME"||t==="BASH_LINENO"||t==="BASH_SOURCE"?__jbStack(e,t).map((i,o)=>[o,i]):',
    },
    {
      find: 'function pt(e,t){return t==="FUNCNAME"?(e.state.funcNameStack?.length??0)>0:t==="BASH_LINENO"?(e.state.callLineStack?.length??0)>0:t==="BASH_SOURCE"?(e.state.sourceStack?.length??0)>0:',
      replace: 'function pt(e,t){return t==="FUNCNAME"||t==="BASH_LINENO"||t==="BASH_SOURCE"?__jbStack(e,t).length>0:',
    },
    { find: 'case"FUNCNAME":{let o=e.state.funcNameStack?.[0];', replace: 'case"FUNCNAME":{let o=__jbStack(e,"FUNCNAME")[0];' },
    { find: 'case"BASH_LINENO":{let o=e.state.callLineStack?.[0];', replace: 'case"BASH_LINENO":{let o=__jbStack(e,"BASH_LINENO")[0];' },
    { find: 'case"BASH_SOURCE":{let o=e.state.sourceStack?.[0];', replace: 'case"BASH_SOURCE":{let o=__jbStack(e,"BASH_SOURCE")[0];' },
    { find: 'return!Number.isNaN(f)&&f>=0?e.state.funcNameStack?.[f]??"":""}', replace: 'return!Number.isNaN(f)&&f>=0?__jbStack(e,"FUNCNAME")[f]??"":""}' },
    { find: 'let d=e.state.callLineStack?.[f];', replace: 'let d=__jbStack(e,"BASH_LINENO")[f];' },
    { find: 'return!Number.isNaN(f)&&f>=0?e.state.sourceStack?.[f]??"":""}', replace: 'return!Number.isNaN(f)&&f>=0?__jbStack(e,"BASH_SOURCE")[f]??"":""}' },
    { find: 'if(t==="FUNCNAME"){let i=e.state.funcNameStack?.[0]||"";', replace: 'if(t==="FUNCNAME"){let i=__jbStack(e,"FUNCNAME")[0]||"";' },
    {
      // The source builtin's frame: pushed while its file runs.
      find: 'e.state.currentSource=r;try{let c=Ge(i),u=await e.executeScript(c);return l(),u}',
      replace: 'e.state.currentSource=r;(e.state.spzSrcFrames??=[]).push({src:r,line:e.state.currentLine,d:e.state.funcNameStack?.length??0});try{let c=Ge(i),u=await e.executeScript(c);return l(),u}',
    },
    { find: 'let a=e.state.currentSource,l=()=>{if(e.state.sourceDepth--,', replace: 'let a=e.state.currentSource,l=()=>{if(e.state.spzSrcFrames?.pop(),e.state.sourceDepth--,' },
  ],
};
