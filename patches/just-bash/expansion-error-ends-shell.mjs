// An expansion error that bash treats as fatal (an arithmetic expansion error, `set -u` meeting an unset
// variable, `${v:?msg}`) is not the failure of one command: it passes up through `{ …; }` groups, function bodies,
// loops and `if`/`case` bodies to the shell level that handles it (the script's top level for these, see
// arith-error-ends-line and error-if-unset-exits). A subshell or a stage of a multi-command pipeline is its own
// shell: it ends there with status 1 and bash's message. Bash's manual, "The Set Builtin" (-u), "Shell
// Parameter Expansion" (${parameter:?word}: "if the shell is not interactive, it exits"), "Shell Arithmetic".
// just-bash caught these in each compound command, printed the bare message and went on.
export default {
  title: 'a fatal expansion error passes up through groups, functions, loops and if/case to its shell',
  upstream: 'src/interpreter/subshell-group.ts executeGroup/executeSubshell, src/interpreter/control-flow.ts (loop error handling, if/case bodies), src/interpreter/pipeline-execution.ts: treat ArithmeticError and NounsetError like ExitError (rethrow; a subshell or pipeline stage ends with status 1 and the error\'s stderr)',
  file: 'dist/bundle/index.js',
  edits: [
    {
      // On its way up it goes where the command's own redirections send stderr (`f 2>/dev/null`); so does an unset
      // parameter's shell exit (unset-parameter-exits: an exit error that carries spzShellStatus).
      find: 'catch(P){if(P instanceof He||P instanceof Qe)k=P,v=ne;else throw P}',
      replace: 'catch(P){if(P instanceof He||P instanceof Qe)k=P,v=ne;else{if((P instanceof ce||P instanceof Ve||P instanceof G&&P.spzShellStatus!==void 0)&&t.redirections.length>0)await go(this.ctx,P,t.redirections,b);throw P}}',
    },
    {
      find: 'if(Or(d)||d instanceof We||d instanceof G)throw d.prependOutput(o.stdout,o.stderr),d;',
      replace: 'if(Or(d)||d instanceof We||d instanceof G||d instanceof ce||d instanceof Ve)throw d.prependOutput(o.stdout,o.stderr),d;',
    },
    {
      find: 'if(e instanceof Te||e instanceof We||e instanceof G||e instanceof x)return e.prependOutput(t,n),{action:"rethrow"',
      replace: 'if(e instanceof Te||e instanceof We||e instanceof G||e instanceof x||e instanceof ce||e instanceof Ve)return e.prependOutput(t,n),{action:"rethrow"',
    },
    {
      find: 'if(Or(s)||s instanceof We||s instanceof G||s instanceof x||s instanceof Mt)throw s.prependOutput(n.stdout,n.stderr),s;',
      replace: 'if(Or(s)||s instanceof We||s instanceof G||s instanceof x||s instanceof Mt||s instanceof ce||s instanceof Ve)throw s.prependOutput(n.stdout,n.stderr),s;',
    },
    {
      find: ':(i.append("stderr",`${$t(a)}\n`),i.build(1))}return i.build(o)}',
      replace: ':(a instanceof ce||a instanceof Ve?(i.append("stdout",a.stdout),i.append("stderr",a.stderr)):i.append("stderr",`${$t(a)}\n`),i.build(1))}return i.build(o)}',
    },
    {
      find: 'else if($ instanceof We&&t.commands.length>1)N={stdout:$.stdout,stderr:$.stderr,exitCode:$.exitCode};',
      replace: 'else if($ instanceof We&&t.commands.length>1)N={stdout:$.stdout,stderr:$.stderr,exitCode:$.exitCode};else if(($ instanceof ce||$ instanceof Ve)&&t.commands.length>1)N={stdout:$.stdout,stderr:$.stderr,exitCode:1};',
    },
  ],
};
