// `command -V f` of a function prints what `type f` prints: `f is a function` and then the function's text, as
// bash's describe_command does for both. just-bash printed the first line only.
export default {
  title: '`command -V` of a function prints its text after `f is a function`, as `type` does',
  upstream: 'src/interpreter/builtins/command.ts (command -V): for a function, describe it as type does (name, "is a function", then the function printed)',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'else if(e.state.functions.has(a))r?s+=`${a} is a function\n`:s+=`${a}\n`;',
      replace: 'else if(e.state.functions.has(a))r?s+=sf(a,e.state.functions.get(a)):s+=`${a}\n`;',
    },
  ],
};
