// A bare word in `[[ … ]]` is the test `-n word`, and bash prints it so wherever it prints the command
// (`declare -f`, `$BASH_COMMAND` in a DEBUG trap): `[[ $x ]]` reads back as `[[ -n $x ]]`. Bash's print_cmd.c
// prints a one-word conditional term with its implied operator.
export default {
  title: 'a bare word in [[ ]] prints as -n word',
  upstream: 'src/ast serializer (conditional expressions): CondWord prints as `-n <word>`',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'case"CondWord":return we(e.word);default:{let t=e;throw new Error(`Unsupported conditional expression type',
      replace: 'case"CondWord":return`-n ${we(e.word)}`;default:{let t=e;throw new Error(`Unsupported conditional expression type',
    },
  ],
};
