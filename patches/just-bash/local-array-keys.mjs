// `local a=([2]=x [5]=y z)` and `local -a w=([3]=v)` assign by subscript as `declare` and a plain `a=(…)` do: an element
// `[SUB]=value` sets index SUB (an arithmetic expression), and a following plain element goes to the next index
// (bash(1) "Arrays": "name=([subscript]=value ...)"). just-bash numbered every element from 0 and kept the `[SUB]=`
// as part of the value, so `local w=([2]=x)` held `[2]=x` at index 0.
export default {
  title: 'local NAME=( [SUB]=value … ) assigns by subscript',
  upstream: 'src/interpreter/builtins/local.ts (array assignment): read a leading [SUB]= of each element as its index (evaluated as arithmetic), later elements continuing from it',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'zt(e,p,"indexed");for(let k=0;k<v.length;k++)Z(e,p,k,v[k]);Jt(e,p),l&&Dt(e,p);continue}',
      replace: 'zt(e,p,"indexed");for(let k=0,x=0;k<v.length;k++,x++){let q=/^\\[([^\\]]+)\\]=(.*)$/s.exec(v[k]);if(q){try{x=await Y(e,re(new Q,q[1]).expression)}catch{x=Number.parseInt(q[1],10)||0}Z(e,p,x,q[2])}else Z(e,p,x,v[k])}Jt(e,p),l&&Dt(e,p);continue}',
    },
  ],
};
