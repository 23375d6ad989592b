// `break` and `continue` return 0, so a loop they end (or whose last executed command they were) returns 0:
// `for i in 1 2; do [ $i = 1 ] && break; done; echo $?` prints 0, and so does a loop whose last pass ran
// `[ … ] && continue`. Bash's manual, "Bourne Shell Builtins" (break, continue: "The return status is zero") and
// "Looping Constructs" (the status is that of the last command executed in the body). just-bash kept the status of
// the command before the break or continue, so `set -e` scripts stopped after such a loop.
export default {
  title: 'a loop left by break, or whose last command was continue, returns 0',
  upstream: 'src/interpreter/control-flow.ts executeFor/executeCStyleFor/executeWhile/executeUntil: set the loop status to 0 on the break and continue actions',
  file: 'dist/bundle/index.js',
  edits: [
    // The status is set before the action test: the other actions (error, rethrow) leave the loop without it.
    { find: 'if(n.replace(l.stdout,l.stderr),l.action==="break")', replace: 'if(n.replace(l.stdout,l.stderr),r=0,l.action==="break")' },
    { find: 'if(r.replace(a.stdout,a.stderr),a.action==="break")', replace: 'if(r.replace(a.stdout,a.stderr),s=0,a.action==="break")' },
    { find: 'if(s.replace(h.stdout,h.stderr),h.action==="break")', replace: 'if(s.replace(h.stdout,h.stderr),i=0,h.action==="break")' },
    { find: 'if(s.replace(f.stdout,f.stderr),f.action==="break")', replace: 'if(s.replace(f.stdout,f.stderr),i=0,f.action==="break")' },
  ],
};
