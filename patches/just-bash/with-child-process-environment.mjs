// A program a command starts (`timeout CMD`, `xargs CMD`, `find -exec CMD`, sed's `e`, `nice`, `nohup`) is a new
// process whose environment is the environment that command was given: the shell's exports as the command ran, its
// prefix assignments included (bash(1) "COMMAND EXECUTION ENVIRONMENT"; execve(2)). A command's `exec` ran the
// command line from the interpreter's state as the whole exec began, so `export FOO=1; timeout 5 printenv FOO`
// printed nothing and `Q=5 timeout 5 printenv Q` too, while an `unset HOME` before it was undone. Now an `exec`
// without an `env` of its own gets the command's exported environment as its whole environment, every name of it
// exported (`exportedNames`, patches/just-bash/child-shell-exports.mjs), and nothing else of the shell.
export default {
  title: "a program a command starts gets that command's environment",
  upstream: "src/interpreter/command-resolution (runCommand's CommandContext): exec/execWithInheritedStdin default to { env: the command's exported env, replaceEnv: true, exportedNames } when the caller passes no env",
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'exec:(v,k)=>i.execFn(v,{...k,spzParentPid:i.state.spzExecParent??i.state.bashPid},!1),execWithInheritedStdin:async(v,k)=>{let R=await i.execFn(v,{...k,stdin:d,stdinKind:"bytes",spzParentPid:i.state.spzExecParent??i.state.bashPid},!0);',
      replace: 'exec:(v,k)=>i.execFn(v,{...__jbChildEnv(k,h),spzParentPid:i.state.spzExecParent??i.state.bashPid},!1),execWithInheritedStdin:async(v,k)=>{let R=await i.execFn(v,{...__jbChildEnv(k,h),stdin:d,stdinKind:"bytes",spzParentPid:i.state.spzExecParent??i.state.bashPid},!0);',
    },
    {
      find: 'async function pf(',
      replace: 'function __jbChildEnv(k,h){return k?.env===void 0?{...k,env:{...h},replaceEnv:!0,exportedNames:Object.keys(h)}:k}async function pf(',
    },
  ],
};
