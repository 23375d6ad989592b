// bash repeats the first character of the expanded PS4 once per level of indirection (bash's manual, "Bash
// Variables", PS4): a trace inside a command or process substitution, an `eval` or a sourced file gets one more
// (`x=$(echo a)` traces `++ echo a` then `+ x=a`; `eval 'echo a'` traces `+ eval 'echo a'` then `++ echo a`).
// just-bash printed PS4 once at every level.
export default {
  title: 'xtrace repeats PS4\'s first character once per substitution, eval and source level',
  upstream: 'src/interpreter/helpers/xtrace.ts getXtracePrefix: repeat the first character of the expanded PS4 for each command/process substitution (substitutionDepth) and each eval/source being run; src/interpreter/builtins (eval, source): count the level while running',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'try{let s=new Q().parseWordFromString(t,!1,!1);return await se(e,s)}',
      replace:
        'try{let s=new Q().parseWordFromString(t,!1,!1),v=await se(e,s),k=(e.substitutionDepth??0)+(e.state.__jbTraceDepth??0);return v&&k>0?v[0].repeat(k)+v:v}',
    },
    {
      find: 'if(t==="eval"&&c.state.options.posix)return Is(c,n,s,l);',
      replace: 'if(t==="eval"&&c.state.options.posix)return _jbTraceDeeper(c,()=>Is(c,n,s,l));',
    },
    {
      find: 'if(t==="eval")return Is(c,n,s,l);',
      replace: 'if(t==="eval")return _jbTraceDeeper(c,()=>Is(c,n,s,l));',
    },
    {
      find: 'if(t==="source"||t===".")return Xo(c,n,s);',
      replace:
        'if(t==="source"||t===".")return _jbTraceDeeper(c,()=>Xo(c,n,s));',
    },
    {
      // The level counter, kept on the shell state so a subshell or function inside shares it.
      find: 'var Yu="+ ";',
      replace: 'async function _jbTraceDeeper(e,f){e.state.__jbTraceDepth=(e.state.__jbTraceDepth??0)+1;try{return await f()}finally{e.state.__jbTraceDepth--}}var Yu="+ ";',
    },
  ],
};
