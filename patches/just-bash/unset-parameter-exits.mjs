// An unset parameter that bash refuses to expand ends a non-interactive shell, also from inside a function, a group
// or a loop, with status 127 when the shell runs a `-c` string (1 under `set -e`, and 1 in a script file: `bash
// FILE`); a subshell or command substitution ends with 1:
// - `${name:?word}` on an unset (or, with the colon, empty) parameter, with `bash: name: word` (without a word,
//   `name: parameter null or not set`, or `name: parameter not set` for `${name?}`; a quoted empty word `""` is a
//   word, so `name: `): bash's manual, "Shell Parameter Expansion";
// - any unset parameter under `set -u`: "The Set Builtin" (-u: "if not interactive, exits with a non-zero status").
// just-bash printed the word without the name and exited 1, and under `set -u` its compound commands caught the
// error and went on with status 1.
export default {
  title: 'an unset parameter under set -u or ${name:?} ends the shell with 127 (1 under set -e or in a script file)',
  upstream: 'src/interpreter/expansion/parameter-ops.ts handleErrorIfUnset ("name: word", or "name: parameter [null or ]not set" when the word is empty) and src/interpreter/interpreter.ts executeStatement (a NounsetError becomes an ExitError no compound command catches); src/Bash.ts exec: such an exit ends the shell with 127, or 1 under errexit or when reading a script file',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'let o=n.word?await s(e,n.word.parts,r.inDoubleQuotes):`${t}: parameter null or not set`;throw new G(1,"",`bash: ${o}\n`)',
      replace: 'let o=n.word?.parts.some(_p=>_p.type!=="Literal"||_p.value)?`${t}: ${await s(e,n.word.parts,r.inDoubleQuotes)}`:`${t}: ${n.checkEmpty?"parameter null or not set":"parameter not set"}`;throw Object.assign(new G(1,"",`bash: ${o}\n`),{spzShellStatus:e.state.options.errexit||e.state.scriptFile!==void 0?1:127})',
    },
    {
      find: '}catch(l){throw n.prependTo(l),l}let o=s<t.pipelines.length-1',
      replace: '}catch(l){if(l instanceof Ve&&!(l instanceof G))l=Object.assign(new G(1,l.stdout??"",l.stderr??""),{spzShellStatus:this.ctx.state.options.errexit||this.ctx.state.scriptFile!==void 0?1:127});throw n.prependTo(l),l}let o=s<t.pipelines.length-1',
    },
    // The shell's own status; a subshell (which catches the exit) ends with the error's 1.
    {
      find: 'if(y instanceof G)return l({stdout:y.stdout,stderr:y.stderr,exitCode:y.exitCode,',
      replace: 'if(y instanceof G)return l({stdout:y.stdout,stderr:y.stderr,exitCode:y.spzShellStatus??y.exitCode,',
    },
  ],
};
