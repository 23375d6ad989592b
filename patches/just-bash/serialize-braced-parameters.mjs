// The serializer writes a named or positional parameter with braces (`${x}`), so that the text after it stays
// text: `${x}0`, `"${x}y"`, `${s}x` were written `$x0`, `"$xy"`, `$sx` (other, unset parameters), and the shell
// engine, which writes scripts back to text before running them, printed nothing for them. Bash's manual, "Shell
// Parameter Expansion" (the braces "protect the variable from characters immediately following it").
export default {
  title: 'the serializer keeps ${name} braced, so text after it is not read into the name',
  upstream: 'src/ast/serializer.ts serializeParameterExpansion: write "${name}" for names and positional parameters (only the one-character special parameters bare)',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'function bl(e){return e.operation?`\\${${Sl(e.parameter,e.operation)}}`:Hd(e.parameter)?`\\${${e.parameter}}`:`$${e.parameter}`}',
      replace: 'function bl(e){return e.operation?`\\${${Sl(e.parameter,e.operation)}}`:Hd(e.parameter)||/^[a-zA-Z_0-9]/.test(e.parameter)?`\\${${e.parameter}}`:`$${e.parameter}`}',
    },
  ],
};
