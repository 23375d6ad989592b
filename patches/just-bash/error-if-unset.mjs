// `${name:?word}` on an unset (or, with the colon, empty) parameter makes a non-interactive bash print
// `bash: name: word` (`name: parameter null or not set` without a word) and exit with status 127; in a subshell only
// the subshell exits, with 1. Bash's manual, "Shell Parameter Expansion" (and bash 5.2's exit status for it). just-bash
// printed the word without the name and exited 1.
export default {
  title: '${name:?word} names the parameter and exits the shell with 127',
  upstream: 'src/interpreter/expansion/parameter-ops.ts handleErrorIfUnset: message "name: word", and a shell-level exit status of 127 (src/Bash.ts exec: an ExitError marked as such ends the shell with 127)',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'let o=n.word?await s(e,n.word.parts,r.inDoubleQuotes):`${t}: parameter null or not set`;throw new G(1,"",`bash: ${o}\n`)',
      replace: 'let o=n.word?`${t}: ${await s(e,n.word.parts,r.inDoubleQuotes)}`:`${t}: parameter null or not set`;throw Object.assign(new G(1,"",`bash: ${o}\n`),{spzUnsetExit:!0})',
    },
    {
      find: 'if(y instanceof G)return l({stdout:y.stdout,stderr:y.stderr,exitCode:y.exitCode,',
      replace: 'if(y instanceof G)return l({stdout:y.stdout,stderr:y.stderr,exitCode:y.spzUnsetExit?127:y.exitCode,',
    },
  ],
};
