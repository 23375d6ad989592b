// bash hands a program its exported variables in the order of its variable hash table (variables.c: 1024 buckets
// by FNV-1 of the name, hashlib.c; the most recent variable first within a bucket), after the command's own prefix
// assignments in the order written: `env` prints SHELL, PWD, LOGNAME, HOME, LANG, USER, SHLVL, PATH in that order,
// and `B=1 A=2 env` starts with B=1, A=2. just-bash gave the order the variables were set in. A run whose embedder
// starts the program itself rather than as bash would (`env -i B=1 A=2 CMD`: CMD gets env's order) asks for
// `keepEnvOrder`: the order of the environment it was given. The one lower SHLVL bash gives the last command of a
// `-c` script (which it runs in its own process) comes from the embedder as the prefix assignment
// `__spritzer_shlvl=N`: it is SHLVL's value, in SHLVL's place, not a variable of its own.
export default {
  title: "A program's environment comes in bash's order: prefix assignments, then by bash's variable hash table",
  upstream: 'src/interpreter/interpreter.ts buildExportedEnv: temporary (prefix) exports first in their order, then the exported variables by FNV-1 hash bucket (of 1024), later ones first within a bucket; exec option keepEnvOrder (state.keepEnvOrder) keeps the order of the given environment; an embedder-reserved temporary variable gives SHLVL its value',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'buildExportedEnv(){let t=this.ctx.state.exportedVars,n=this.ctx.state.tempExportedVars,r=new Set;if(t)for(let i of t)r.add(i);if(n)for(let i of n)r.add(i);',
      replace:
        'buildExportedEnv(){let t=this.ctx.state.exportedVars,n=this.ctx.state.tempExportedVars,r=new Set;if(n)for(let i of n)r.add(i);' +
        'let _k=q=>{let h=2166136261;for(let c of Buffer.from(q))h=Math.imul(h,16777619)>>>0,h=(h^c)>>>0;return h&1023};' +
        'if(t&&this.ctx.state.keepEnvOrder)for(let i of this.ctx.state.env.keys())t.has(i)&&r.add(i);' +
        'if(t)for(let i of[...t].reverse().filter(i=>!r.has(i)).map(i=>[_k(i),i]).sort((a,b)=>a[0]-b[0]))r.add(i[1]);',
    },
    {
      find: 'o!==void 0&&(s[i]=o)}return s}',
      replace: 'o!==void 0&&(s[i]=o)}let _l=s.__spritzer_shlvl;if(_l!==void 0){delete s.__spritzer_shlvl;s.SHLVL!==void 0&&(s.SHLVL=_l)}return s}',
    },
    {
      find: 'keepUnderscore:u.keepUnderscore===!0}',
      replace: 'keepUnderscore:u.keepUnderscore===!0,keepEnvOrder:u.keepEnvOrder===!0}',
    },
  ],
};
