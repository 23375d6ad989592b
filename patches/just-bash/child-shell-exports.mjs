// A child shell (`bash -c`, `bash FILE`, `sh -c`) exports what it inherited from its environment, and its own PWD and
// SHLVL, nothing more: `env -i bash -c 'export -p'` lists OLDPWD, PWD and SHLVL, and the PATH bash makes up when it
// has none is a shell variable, not exported (bash(1) "PATH"; "Command Execution Environment"). just-bash handed
// every nested run the top-level shell's one set of exported names, so a child saw the names its parent exported
// (set or not), and what a child exported leaked back. An exec may now name the child's exported variables
// (`exportedNames`): the child gets its own set of them.
export default {
  title: 'a child shell exports only the names it inherited, in a set of its own',
  upstream: 'src/Bash.ts exec: new ExecOptions.exportedNames; when given, the execution state gets exportedVars = new Set(exportedNames) instead of the shared set',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'previousDir:u.env?.OLDPWD??this.state.previousDir,',
      replace: 'previousDir:u.env?.OLDPWD??this.state.previousDir,exportedVars:u.exportedNames?new Set(u.exportedNames):this.state.exportedVars,',
    },
  ],
};
