// The hash table remembers the programs a script ran (bash's manual, "Command Search and Execution"), never the
// engine's own helper commands (`__spritzer_*`): the engine runs a top-level `sh …`/`bash …` through its streaming
// helper, and `hash` then listed `/usr/bin/__spritzer_run` where bash lists `/usr/bin/sh`. The helper's program
// (its first argument, when that is a name PATH finds, not a path) is hashed instead.
export default {
  title: "hash remembers the shell a top-level sh/bash ran, not the engine's helper command",
  upstream: 'src/interpreter/command-resolution.ts (hashTable.set): a hook for an embedder to hash the program its own helper command runs, not the helper',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'i.state.hashTable.set(t,q)',
      replace: 't.startsWith("__spritzer_")?t==="__spritzer_run"&&n[0]&&!n[0].includes("/")&&i.state.hashTable.set(n[0],q.replace(/[^/]*$/,n[0])):i.state.hashTable.set(t,q)',
    },
  ],
};
