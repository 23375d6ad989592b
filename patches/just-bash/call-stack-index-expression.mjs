// The subscript of FUNCNAME, BASH_LINENO and BASH_SOURCE is an arithmetic expression like any indexed array's:
// `${FUNCNAME[i]}` and `${BASH_LINENO[i-1]}` in a `for (( i=1; ... ))` stack-trace loop read frame i (bash(1)
// "Arrays": "the subscript is ... an arithmetic expression"). just-bash took only a literal number there and
// expanded any other subscript to the empty string.
export default {
  title: '${FUNCNAME[i]} and the other call-stack arrays evaluate their subscript',
  upstream: 'src/interpreter/expansion/variable.ts getVariable: evaluate a FUNCNAME/BASH_LINENO/BASH_SOURCE subscript that is not a literal number as arithmetic before indexing the call stack',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'if(o==="FUNCNAME"){let f=Number.parseInt(a,10);return',
      replace: 'if((o==="FUNCNAME"||o==="BASH_LINENO"||o==="BASH_SOURCE")&&!/^\\d+$/.test(a))try{a=String(await Y(e,re(new Q,a).expression))}catch{}if(o==="FUNCNAME"){let f=Number.parseInt(a,10);return',
    },
  ],
};
