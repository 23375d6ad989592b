// A message that ends the shell (`set -u` meeting an unset variable, `${v:?}`, an arithmetic error, `exit abc`) is
// written, like every message of the shell's own, to the shell's fd 2 as it stands: after `exec 2>&1` it reaches
// stdout, after `exec 2>/dev/null` nowhere. Bash's manual, "Redirections" (exec without a command changes the
// shell's own descriptors). just-bash's top level handed the exiting error's message to the caller's stderr.
export default {
  title: 'the message that ends the shell goes where the shell\'s fd 2 goes',
  upstream: 'src/interpreter/interpreter.ts Interpreter.executeScript: for the outermost script, route an ExitError\'s stderr through the shell\'s file descriptors (applyRedirections with no redirections) before rethrowing it',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'catch(i){this.ctx.state.spzDiscard=!1;if(i instanceof G)throw i.prependOutput(r.stdout,r.stderr),i;',
      replace: 'catch(i){this.ctx.state.spzDiscard=!1;if(i?.stderr&&t===this.ctx.state.topLevelScript&&(i instanceof G||i instanceof st||i instanceof Ve||i instanceof ce||i instanceof Ke||i instanceof Rr)){let o=await rn(this.ctx,{stdout:"",stderr:i.stderr,exitCode:0},[],new Map,new Map,new Map);i.stdout+=o.stdout,i.stderr=o.stderr}if(i instanceof G)throw i.prependOutput(r.stdout,r.stderr),i;',
    },
  ],
};
