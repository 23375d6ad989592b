// With `set -x`, after tracing `export NAME=VALUE …` or `readonly NAME=VALUE …` bash traces each assignment among
// the words again, as it makes it (`+ export A=1` then `+ A=1`; `C+=1` as written; values quoted as in any
// assignment's trace). `declare`, `typeset` and `local` trace only the command. just-bash traced only the command.
export default {
  title: 'set -x traces the assignments of export and readonly',
  upstream: 'src/interpreter/interpreter.ts executeSimpleCommandInner: after the xtrace line of an export/readonly command, append one assignment trace (PS4 NAME=VALUE) per NAME=VALUE word',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'let S=await ef(this.ctx,u,f);',
      replace: 'let S=await ef(this.ctx,u,f);if(S&&(u==="export"||u==="readonly"))for(let a of f){let m=/^([A-Za-z_][A-Za-z0-9_]*\\+?)=(.*)$/s.exec(a);m&&(S+=await tf(this.ctx,m[1],m[2]))}',
    },
  ],
};
