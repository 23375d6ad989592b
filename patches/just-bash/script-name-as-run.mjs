// A script run by name gets as $0 (and as the name its error messages start with) the path as the command named it:
// `./run.sh` is `./run.sh`, `sub/../run.sh` stays so, and a script found on PATH is the path PATH gave (bash's
// execute_cmd.c passes the command word, or the hashed full path, to the child as argv[0]; `usage: $0` and
// `./run.sh: line 3: x: command not found` show it). just-bash gave the absolute path it had resolved.
export default {
  title: 'a script run by name has $0 and its messages named as the command named it',
  upstream: 'src/interpreter/command-resolution.ts runs executeUserScript(path, args, stdin, shownName) with the command word when it holds a slash (else the PATH result); interpreter.ts executeUserScript sets $0 and currentSource from shownName',
  file: 'dist/bundle/index.js',
  edits: [
    { find: 'async executeUserScript(t,n,r=""){return kf(this.ctx,t,n,r,s=>this.executeScript(s))}', replace: 'async executeUserScript(t,n,r="",Zn){return kf(this.ctx,t,n,r,s=>this.executeScript(s),Zn)}' },
    { find: 'executeUserScript:(d,p,h)=>this.executeUserScript(d,p,h)}', replace: 'executeUserScript:(d,p,h,Zn)=>this.executeUserScript(d,p,h,Zn)}' },
    { find: 'async function kf(e,t,n,r,s){', replace: 'async function kf(e,t,n,r,s,Zn){' },
    { find: 'e.state.currentSource=t,e.state.env.set("0",t),', replace: 'e.state.currentSource=Zn??t,e.state.env.set("0",Zn??t),' },
    { find: 'return t.includes("/")||H(c.path),await a(c.path,n,r)}', replace: 'return t.includes("/")||H(c.path),await a(c.path,n,r,t.includes("/")?t:c.path)}' },
  ],
};
