// A nameref to itself (`declare -n r=r`) is refused at the top level with bash's error (status 1, nothing set):
// `declare: r: nameref variable self references not allowed`; in a function (`local -n x=x`) bash warns
// `local: warning: x: circular name reference` and makes it. just-bash made it silently everywhere.
export default {
  title: 'a nameref to itself: an error at the top level, a warning in a function',
  upstream: 'src/interpreter/builtins/declare.ts and local.ts (-n): refuse or warn when the reference names the variable itself',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: "invalid variable name for name reference\n`,N=1;continue}e.state.env.set(U,j),Dt(e,U),",
      replace: "invalid variable name for name reference\n`,N=1;continue}if(j===U){if(!e.state.callDepth){C+=`bash: declare: ${U}: nameref variable self references not allowed\n`,N=1;continue}C+=`bash: declare: warning: ${U}: circular name reference\n`}e.state.env.set(U,j),Dt(e,U),",
    },
    {
      find: "invalid variable name for name reference\n`,a=1;continue}e.state.env.set(p,h),",
      replace: "invalid variable name for name reference\n`,a=1;continue}l&&h===p&&(o+=`bash: local: warning: ${p}: circular name reference\n`);e.state.env.set(p,h),",
    },
  ],
};
