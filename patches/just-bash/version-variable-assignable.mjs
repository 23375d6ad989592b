// BASH_VERSION is an ordinary shell variable bash sets at startup (bash's manual, "Bash Variables"): a script may
// assign or unset it (`unset BASH_VERSION; echo "[$BASH_VERSION]"` prints `[]`), it is listed by `set` and
// `declare -p` like any other, and dash (a sprite's sh) has none. The engine gives each bash its value among its own
// variables (env-command.ts `bashVariables`); just-bash answered the built-in text whatever the script did.
export default {
  title: 'BASH_VERSION is a variable a script may assign or unset (and sh has none)',
  upstream: 'src/interpreter/expansion/variable.ts getVariable: read BASH_VERSION from the variables (set at shell start) instead of a constant',
  file: 'dist/bundle/index.js',
  edits: [{ find: 'case"BASH_VERSION":return Da;', replace: '' }],
};
