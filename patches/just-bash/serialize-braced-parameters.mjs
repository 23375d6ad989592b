// The serializer writes a named or positional parameter with braces (`${x}`), so that the text after it stays
// text: `${x}0`, `"${x}y"`, `${s}x` were written `$x0`, `"$xy"`, `$sx` (other, unset parameters), and the shell
// engine, which writes scripts back to text before running them, printed nothing for them. Bash's manual, "Shell
// Parameter Expansion" (the braces "protect the variable from characters immediately following it"). A name the
// script wrote bare (`$x`, which the parser ended at the first non-name character) stays bare.
export default {
  title: 'the serializer keeps ${name} braced, so text after it is not read into the name',
  upstream: 'src/ast/serializer.ts serializeParameterExpansion: write "${name}" for names and positional parameters (only the one-character special parameters bare)',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'function bl(e){return e.operation?`\\${${Sl(e.parameter,e.operation)}}`:Hd(e.parameter)?`\\${${e.parameter}}`:`$${e.parameter}`}',
      replace: 'function bl(e){return e.spzBare&&!e.operation&&/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(e.parameter)?`$${e.parameter}`:e.operation?`\\${${Sl(e.parameter,e.operation)}}`:Hd(e.parameter)||/^[a-zA-Z_0-9]/.test(e.parameter)?`\\${${e.parameter}}`:`$${e.parameter}`}',
    },
    {
      // A name the script wrote bare (`$x`: the parser took every name character after it) is written back bare,
      // as `set -x` shows a loop's or a case's words as written (`+ case $i in`).
      find: 'return{part:M.parameterExpansion(i),endIndex:r}}function Fd(',
      replace: 'return{part:{...M.parameterExpansion(i),spzBare:!0},endIndex:r}}function Fd(',
    },
  ],
};
