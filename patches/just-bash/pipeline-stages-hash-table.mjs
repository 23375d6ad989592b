// A pipeline's stages are subshells (bash's manual, "Pipelines"): a command one of them looks up in PATH is hashed
// in that subshell's copy of the table, not the shell's (`ls | cat; hash` lists neither; the hits of a command the
// shell had hashed do not move). just-bash's stages hashed into the shell's own table.
export default {
  title: "commands a subshell stage of a pipeline runs stay out of the shell's hash table",
  upstream: 'src/interpreter/pipeline-execution.ts executePipeline: copy state.hashTable (and hashPath, hashHits) for a subshell stage, restore them after',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'let _cw=e.state.cwd,_pd=e.state.previousDir,_ds=e.state.directoryStack,_sl=e.state.subshellLevel;k&&(',
      replace: 'let _cw=e.state.cwd,_pd=e.state.previousDir,_ds=e.state.directoryStack,_sl=e.state.subshellLevel,_ht=e.state.hashTable,_hp=e.state.hashPath,_hh=e.state.hashHits;k&&(e.state.hashTable=_ht&&new Map(_ht),e.state.hashHits=_hh&&new Map(_hh)),k&&(',
    },
    { find: 'k&&(e.state.cwd=_cw,e.state.previousDir=_pd,', replace: 'k&&(e.state.hashTable=_ht,e.state.hashPath=_hp,e.state.hashHits=_hh,e.state.cwd=_cw,e.state.previousDir=_pd,' },
  ],
};
