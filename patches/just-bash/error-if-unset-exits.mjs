// `${v:?msg}` / `${v?msg}` on an unset (or, with the colon, empty) v ends a non-interactive shell as an unset
// variable under `set -u` does: bash prints `bash: v: msg` (`bash: v: parameter null or not set`, `…: parameter not
// set` without a word) and a non-interactive bash 5.2 exits 127 from its top level (1 under `set -e`, and 1 from a
// subshell or command substitution). Bash's manual, "Shell Parameter Expansion"; just-bash printed the word without
// the name and exited 1.
export default {
  title: '${v:?msg} names the variable and ends the shell as an unbound variable does (127 at the top level)',
  upstream: 'src/interpreter/expansion/parameter-ops.ts handleErrorIfUnset: throw a NounsetError whose stderr is "bash: NAME: WORD" (default "parameter null or not set" / "parameter not set"); src/interpreter/interpreter.ts executeScript: a NounsetError outside a command substitution exits 127 unless errexit is set',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'let o=n.word?await s(e,n.word.parts,r.inDoubleQuotes):`${t}: parameter null or not set`;throw new G(1,"",`bash: ${o}\n`)',
      replace: 'let o=n.word?.parts.some(_p=>_p.type!=="Literal"||_p.value)?await s(e,n.word.parts,r.inDoubleQuotes):n.checkEmpty?"parameter null or not set":"parameter not set",_v=new Ve(t);throw _v.stderr=`bash: ${t}: ${o}\n`,_v',
    },
    {
      find: 'if(i instanceof Ve)return r.append("stdout",i.stdout,i.internalOutputAccounting.stdout),r.append("stderr",i.stderr,i.internalOutputAccounting.stderr),n=1,',
      replace: 'if(i instanceof Ve)return r.append("stdout",i.stdout,i.internalOutputAccounting.stdout),r.append("stderr",i.stderr,i.internalOutputAccounting.stderr),n=this.ctx.substitutionDepth||this.ctx.state.options.errexit?1:127,',
    },
  ],
};
