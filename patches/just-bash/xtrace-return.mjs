// With `set -x`, `return` is traced (`+ return 3`, `+ return`) as any command is, before it runs (execute_cmd.c
// traces every simple command before dispatching it, builtins included). The trace travels with the return signal
// to the function call, which writes it with the rest of the function's output, in order. just-bash built the
// trace and then threw the signal without it.
export default {
  title: 'set -x traces return',
  upstream: 'src/interpreter/interpreter.ts executeSimpleCommandInner: when the command throws ReturnError, prepend the command\'s xtrace line to the error\'s stderr before rethrowing',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'catch(P){if(P instanceof He||P instanceof Qe)k=P,v=ne;else{',
      replace: 'catch(P){if(P instanceof He||P instanceof Qe)k=P,v=ne;else{P instanceof Te&&o+S&&(P.stderr=o+S+(P.stderr??""));',
    },
  ],
};
