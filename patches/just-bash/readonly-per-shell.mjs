// Each run of a script has its own set of readonly names: `readonly P=1` in `bash a.sh` is gone when the next
// `bash a.sh` starts, and a parent's readonly variable is not readonly in a child shell (the attribute is never
// passed to a new process; bash(1) "readonly", "ENVIRONMENT"). just-bash's run of a script copied its state shallowly,
// so every run added to one shared set: a script that declares `readonly PROG=...` failed with "PROG: readonly
// variable" the second time it was run, and a parent's readonly name could not be assigned in a child.
export default {
  title: 'readonly names belong to one shell run, not to every later one',
  upstream: 'src/Bash.ts exec: give the new interpreter state its own readonlyVars (a fresh default set for a new shell, replaceEnv; a copy otherwise)',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'exportedVars:u.exportedNames?new Set(u.exportedNames):this.state.exportedVars,functions:new Map(this.state.functions),',
      replace: 'exportedVars:u.exportedNames?new Set(u.exportedNames):this.state.exportedVars,readonlyVars:u.replaceEnv?new Set(["SHELLOPTS","BASHOPTS","BASH_VERSINFO"]):new Set(this.state.readonlyVars),functions:new Map(this.state.functions),',
    },
  ],
};
