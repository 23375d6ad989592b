// The hash table's hit counts (bash's manual, "Bourne Shell Builtins", hash; hashlib.c times_found): a command
// hashed when it is run has 1 hit, each later lookup through the table (running it, `type`, `command -v`,
// `type -P`, `hash -t`) adds one, and `hash NAME` / `hash -p PATH NAME` enter it with 0; `hash` lists the counts.
// A subshell counts in its own copy (as its table is one). The snapshot a subshell restores also keeps the trace
// attributes (patches/just-bash/variable-trace-attribute.mjs) its own. just-bash listed every entry with 1 hit.
export default {
  title: "hash lists each command's hits: 1 when run first, one more per lookup through the table, 0 for hash NAME",
  upstream: 'src/interpreter/builtins/hash.ts and command resolution: count lookups per hashed name (state.hashHits), list them; subshell state snapshot copies it',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'async function Wo(e,t){',
      replace: 'function __jbHashHit(e,t,n){let h=e.state.hashHits??=new Map;h.set(t,n===void 0?(h.get(t)??0)+1:n)}async function Wo(e,t){',
    },
    { find: 'for(let[,m]of e.state.hashTable)h+=`   1\t${m}\n`', replace: 'for(let[k,m]of e.state.hashTable)h+=`${String(e.state.hashHits?.get(k)??0).padStart(4)}\t${m}\n`' },
    { find: 'let h=l[0];return e.state.hashPath=e.state.env.get("PATH"),e.state.hashTable.set(h,a),ne}', replace: 'let h=l[0];return e.state.hashPath=e.state.env.get("PATH"),e.state.hashTable.set(h,a),__jbHashHit(e,h,0),ne}' },
    { find: 'e.state.hashPath=e.state.env.get("PATH"),e.state.hashTable.set(h,b),m=!0;break}', replace: 'e.state.hashPath=e.state.env.get("PATH"),e.state.hashTable.set(h,b),__jbHashHit(e,h,0),m=!0;break}' },
    { find: 'let g=e.state.hashTable.get(b);g?', replace: 'let g=e.state.hashTable.get(b);g&&__jbHashHit(e,b),g?' },
    // type (-t, -p, -P) of a hashed name looks it up through the table.
    { find: 'k=_H??await n(m);k&&(', replace: 'k=_H??await n(m);_H&&__jbHashHit(e,m);k&&(' },
    {
      // type -P of a hashed name: its hashed path
      find: 'else{let k=await n(m);k&&(u+=`${k}\n`,p=!0,w=!0)}w||(h=!0);continue}',
      replace: 'else{let _P=!m.includes("/")&&e.state.hashPath===e.state.env.get("PATH")?e.state.hashTable?.get(m):void 0;_P&&__jbHashHit(e,m);let k=_P??await n(m);k&&(u+=`${k}\n`,p=!0,w=!0)}w||(h=!0);continue}',
    },
    {
      // command -v / -V of a hashed name
      find: 'else if(e.commands.has(a)){let u=(e.state.env.get("PATH")??"").split(":"),f=null;',
      replace: 'else if(e.commands.has(a)&&!a.includes("/")&&e.state.hashPath===e.state.env.get("PATH")&&e.state.hashTable?.get(a)){let _C=e.state.hashTable.get(a);__jbHashHit(e,a),r?s+=`${a} is hashed (${_C})\n`:s+=`${_C}\n`}else if(e.commands.has(a)){let u=(e.state.env.get("PATH")??"").split(":"),f=null;',
    },
    {
      find: 'if(l&&Ms(o,_b))return{cmd:l,path:o};if((a.mode&73)!==0)return{script:!0,path:o}',
      replace: 'if(l&&Ms(o,_b))return __jbHashHit(e,t),{cmd:l,path:o};if((a.mode&73)!==0)return __jbHashHit(e,t),{script:!0,path:o}',
    },
    {
      find: 'let H=q=>{i.state.hashTable||(i.state.hashTable=new Map),i.state.hashPath!==i.state.env.get("PATH")&&i.state.hashTable.clear(),i.state.hashPath=i.state.env.get("PATH"),',
      replace: 'let H=q=>{i.state.hashTable||(i.state.hashTable=new Map),i.state.hashPath!==i.state.env.get("PATH")&&i.state.hashTable.clear(),i.state.hashPath=i.state.env.get("PATH"),(_k=>i.state.hashTable.has(_k)?t==="__spritzer_run"&&__jbHashHit(i,_k):__jbHashHit(i,_k,1))(t==="__spritzer_run"?n[0]??t:t),',
    },
    { find: 'hashTable:e.hashTable,completionSpecs:e.completionSpecs', replace: 'hashTable:e.hashTable,hashHits:e.hashHits,traceVars:e.traceVars,traceFuncs:e.traceFuncs,completionSpecs:e.completionSpecs' },
    {
      find: 'e.hashTable=e.hashTable?new Map(e.hashTable):void 0,',
      replace: 'e.hashTable=e.hashTable?new Map(e.hashTable):void 0,e.hashHits=e.hashHits?new Map(e.hashHits):void 0,e.traceVars=e.traceVars?new Set(e.traceVars):void 0,e.traceFuncs=e.traceFuncs?new Set(e.traceFuncs):void 0,',
    },
  ],
};
