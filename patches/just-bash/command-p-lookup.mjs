// `command -v -p NAME` and `command -V -p NAME` look NAME up in the default PATH, the one `getconf PATH` prints
// (glibc's _CS_PATH, /bin:/usr/bin), whatever PATH holds: `command -v -p ls` is /bin/ls, also after `PATH=/nope`
// (bash's manual, "Bash Builtins": command). just-bash ignored -p when reporting, and searched PATH.
export default {
  title: 'command -v -p and -V -p report what the default PATH finds',
  upstream: 'src/interpreter/builtins/command.ts (command builtin): with -p and -v/-V, search the default path /bin:/usr/bin instead of PATH',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'if(l||a)return await cf(s,c,l,a);',
      // each name on its own: a hashed name answers its hashed path, as bash's does
      replace: 'if((l||a)&&o){let P=s.state.env.get("PATH"),R=[];for(let N of c){let K=s.state.hashTable?.has(N)&&s.state.hashPath===P;K||s.state.env.set("PATH","/bin:/usr/bin");try{R.push(await cf(s,[N],l,a))}finally{P===void 0?s.state.env.delete("PATH"):s.state.env.set("PATH",P)}}return{...R[R.length-1],stdout:R.map(x=>x.stdout).join(""),stderr:R.map(x=>x.stderr).join(""),exitCode:R.some(x=>x.exitCode===0)?0:R[R.length-1].exitCode}}if(l||a)return await cf(s,c,l,a);',
    },
  ],
};
