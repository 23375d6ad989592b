// jq's `def f(g): …` takes g as a filter, run where the body calls it, on the body's input at that point and with
// the variables in scope where the call was written; `def f($a): …` is `def f(a): a as $a | …`, so `$a` takes each
// value of the argument (evaluated on the call's input) in turn and `a` is the filter too; a def's body sees the
// variables in scope where it was defined (the manual's "Defining Functions"; src/compile.c, closure params).
// just-bash evaluated every argument once, on the call's input, before the body ran, so `def m(f): [.[] | f];
// m(. + 1)` added 1 to the array, and never bound `$a`, which read null.
export default {
  title: 'jq user-defined functions take filter arguments as closures and bind $params to each argument value',
  upstream: 'src/commands/query-engine (evaluate, Call of a user function; Def): bind each parameter as a closure over the call site (functions and variables), and $params to each value of their argument',
  file: 'dist/bundle/chunks/chunk-6KK46B7Q.js',
  edits: [
    {
      find: 'let N=w.closure??r.funcs??new Map,O=new Map(N);O.set(A,w);for(let X=0;X<w.params.length;X++){let Ye=w.params[X],Re=t[X];if(Re){let L=d(e,Re,r),K;if(L.length===0)K={type:"Call",name:"empty",args:[]};else if(L.length===1)K={type:"Literal",value:L[0]};else{K={type:"Literal",value:L[L.length-1]};for(let fe=L.length-2;fe>=0;fe--)K={type:"Comma",left:{type:"Literal",value:L[fe]},right:K}}O.set(`${Ye}/0`,{params:[],body:K})}}let $={...r,funcs:O};return d(e,w.body,$)}',
      replace:
        'let O=new Map(w.closure??r.funcs??new Map),binds=[];O.set(A,w);for(let X=0;X<w.params.length;X++){let Ye=w.params[X],Re=t[X];if(!Re)continue;' +
        'O.set(`${Ye.replace(/^\\$/,"")}/0`,{params:[],body:Re,closure:new Map(r.funcs??[]),vars:r.vars});Ye.startsWith("$")&&binds.push([Ye,Re])}' +
        'let run=(ctx,i)=>i===binds.length?d(e,w.body,ctx):M(r,d(e,binds[i][1],r),v=>run({...ctx,vars:new Map(ctx.vars).set(binds[i][0],v)},i+1));' +
        'return run({...r,funcs:O,vars:w.vars??r.vars},0)}',
    },
    {
      find: 'r.set(s,{params:n.params,body:n.funcBody,closure:new Map(t.funcs??[])});',
      replace: 'r.set(s,{params:n.params,body:n.funcBody,closure:new Map(t.funcs??[]),vars:t.vars});',
    },
  ],
};
