// Posix mode and POSIXLY_CORRECT go together (bash's manual, "Bash Variables": "If this variable is in the
// environment when Bash starts, the shell enters POSIX mode before reading the startup files ... If it is set while
// the shell is running, Bash enables POSIX mode, as if the command `set -o posix' had been executed"; variables.c
// sv_strict_posix turns it off again when the variable is unset, and `set -o posix` sets POSIXLY_CORRECT=y). So the
// `posix` option here reads and writes the variable. In posix mode a function name must be a valid identifier
// (execute_cmd.c execute_intern_function: "`f-1': not a valid identifier", a fatal error, status 2).
// just-bash kept the option apart from the variable and accepted any function name.
// @deviation SHELLOPTS is not recomputed when POSIXLY_CORRECT is assigned (only by `set -o`/`set +o`) (docs/fidelity.md).
export default {
  title: 'POSIXLY_CORRECT turns on posix mode; posix mode refuses function names that are not identifiers',
  upstream: 'src/interpreter/interpreter.ts initial state: make options.posix an accessor over the POSIXLY_CORRECT variable; functions.ts executeFunctionDef: in posix mode reject names that are not identifiers',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'options:{errexit:!1,pipefail:!1,nounset:!1,xtrace:!1,verbose:!1,posix:!1,allexport:!1,noclobber:!1,noglob:!1,noexec:!1,vi:!1,emacs:!1}',
      replace: 'options:__jbPosixOptions({errexit:!1,pipefail:!1,nounset:!1,xtrace:!1,verbose:!1,allexport:!1,noclobber:!1,noglob:!1,noexec:!1,vi:!1,emacs:!1},()=>this.state)',
    },
    {
      // The state a script or `bash -c` runs in: its option reads its own variables.
      find: 'localScopes:[...this.state.localScopes],options:{...this.state.options}',
      replace: 'localScopes:[...this.state.localScopes],options:__jbPosixOptions({...this.state.options},()=>m)',
    },
    {
      // A subshell's copy of the options reads the subshell's variables.
      find: 'e.env=new Map(e.env),e.arrays=ot(e.arrays),e.options={...e.options},',
      replace: 'e.env=new Map(e.env),e.arrays=ot(e.arrays),e.options=__jbPosixOptions({...e.options},()=>e),',
    },
    {
      find: 'is a special builtin\n`;throw new G(2,"",r)}let n={...t,sourceFile:',
      replace: 'is a special builtin\n`;throw new G(2,"",r)}if(e.state.options.posix&&!/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(t.name))throw new G(2,"",`bash: line ${e.state.currentLine}: \\`${t.name}\': not a valid identifier\\n`);let n={...t,sourceFile:',
    },
    {
      find: 'function Pu(e,t){',
      replace: 'function __jbPosixOptions(o,st){delete o.posix;return Object.defineProperty(o,"posix",{enumerable:!0,configurable:!0,get:()=>st().env.has("POSIXLY_CORRECT"),set:v=>{let n=st().env;v?n.has("POSIXLY_CORRECT")||n.set("POSIXLY_CORRECT","y"):n.delete("POSIXLY_CORRECT")}})}function Pu(e,t){',
    },
  ],
};
