// `set -u` names an unset positional or special parameter with its `$`: `$1: unbound variable`, `$2: …` (a named
// variable stays bare: `x: unbound variable`), as bash's error for `$1` reads (bash's subst.c, err_unboundvar
// quoting the parameter as written). just-bash wrote `1: unbound variable`.
export default {
  title: 'an unset positional parameter under set -u is named $N',
  upstream: 'src/interpreter/errors.ts NounsetError: write the name of a positional or special parameter with its `$`',
  file: 'dist/bundle/chunks/chunk-EFORKKSH.js',
  edits: [
    {
      find: 'super(`${t}: unbound variable`,e,`bash: ${t}: unbound variable',
      replace: 't=/^(\\d+|[@*#?$!-])$/.test(t)?"$"+t:t;super(`${t}: unbound variable`,e,`bash: ${t}: unbound variable',
    },
  ],
};
