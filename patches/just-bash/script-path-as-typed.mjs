// A script run by a path (`./build.sh`, `tools/x.sh`) has that path, as typed, for `$0` and `BASH_SOURCE`, and in
// its error messages (`./build.sh: line 3: …`): execve gets the path the shell was given, and bash in the script
// takes it as its name. One found on the PATH has the full path found. just-bash always used the resolved absolute
// path, so a usage line `usage: $0 [-v] target` printed /home/…/build.sh. Bash's manual, "Invoking Bash" and
// "Special Parameters" ($0).
export default {
  title: 'a script run by a path has that path as typed for $0, BASH_SOURCE and its messages',
  upstream: 'src/interpreter/command-resolution.ts runCommand and src/interpreter/interpreter.ts executeUserScript: pass the command name as typed (when it holds a slash) and use it for $0 and currentSource',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'return t.includes("/")||H(c.path),await a(c.path,n,r)}let{cmd:u,path:f}=c;',
      replace: 'return t.includes("/")||H(c.path),i.state.spzArgv0=t.includes("/")?t:c.path,await a(c.path,n,r)}let{cmd:u,path:f}=c;',
    },
    {
      find: 'e.state.currentSource=t,e.state.env.set("0",t)',
      replace: 'e.state.currentSource=e.state.spzArgv0??t,e.state.env.set("0",e.state.spzArgv0??t),e.state.spzArgv0=void 0',
    },
  ],
};
