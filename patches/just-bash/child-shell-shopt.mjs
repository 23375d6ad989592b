// A child shell (`bash -c …`, `bash script.sh`: an exec that replaces the environment) starts with bash's default
// shell options, and what it sets with `shopt` stays in it: after `bash -c 'shopt -s nullglob'` the parent's
// `*.zz` is still `*.zz`. Bash's manual, "Command Execution Environment" (a child process gets a copy, not the
// parent's options). just-bash handed the child the parent's own option object, so changes leaked both ways.
export default {
  title: 'a child shell starts with the default shopt options and keeps its changes to itself',
  upstream: 'src/Bash.ts exec: with replaceEnv, give the execution state a fresh copy of the default shoptOptions (and never the caller\'s object)',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'this.state.env.set("SHELLOPTS",si(this.state.options)),this.state.env.set("BASHOPTS",ii(this.state.shoptOptions))',
      replace: 'this.spzShoptDefaults={...this.state.shoptOptions},this.state.env.set("SHELLOPTS",si(this.state.options)),this.state.env.set("BASHOPTS",ii(this.state.shoptOptions))',
    },
    { find: 'let m={...this.state,env:h,', replace: 'let m={...this.state,shoptOptions:u.replaceEnv?{...this.spzShoptDefaults}:this.state.shoptOptions,env:h,' },
  ],
};
