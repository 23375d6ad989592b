// A command substitution runs in a subshell (bash's manual, "Command Substitution"; "Command Execution
// Environment"): the commands it looks up in PATH are remembered in the subshell's hash table, not the parent's
// (`x=$(ls); hash -l` lists nothing). just-bash ran `$(…)` on the parent's table, so they leaked into it; a `( … )`
// subshell already had its own copy.
export default {
  title: 'commands hashed inside $(…) stay out of the parent shell\'s hash table',
  upstream: 'src/interpreter/expansion/command-substitution.ts: save and restore state.hashTable (and hashPath, hashHits) around the body, as a subshell does',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'let c=new Map(e.state.env),u=ot(e.state.arrays),f=e.state.cwd,d=e.state.suppressVerbose;',
      replace: 'let c=new Map(e.state.env),u=ot(e.state.arrays),f=e.state.cwd,d=e.state.suppressVerbose,_ht=e.state.hashTable,_hp=e.state.hashPath,_hh=e.state.hashHits;e.state.hashTable=_ht?new Map(_ht):void 0,e.state.hashHits=_hh?new Map(_hh):void 0;',
    },
    {
      find: 'e.state.env=c,e.state.arrays=u,e.state.cwd=f,e.state.suppressVerbose=d,e.state.lastExitCode=h',
      replace: 'e.state.env=c,e.state.arrays=u,e.state.cwd=f,e.state.hashTable=_ht,e.state.hashPath=_hp,e.state.hashHits=_hh,e.state.suppressVerbose=d,e.state.lastExitCode=h',
    },
    {
      find: 'e.state.env=c,e.state.arrays=u,e.state.cwd=f,e.state.bashPid=l,e.state.currentCommand=_jbCc',
      replace: 'e.state.env=c,e.state.arrays=u,e.state.cwd=f,e.state.hashTable=_ht,e.state.hashPath=_hp,e.state.hashHits=_hh,e.state.bashPid=l,e.state.currentCommand=_jbCc',
    },
  ],
};
