// With `shopt -s globstar`, a path component that is exactly `**` matches zero or more directories, and as the last
// component every file and directory below: `src/**` gives `src/ src/lib src/lib/util.ts src/main.py`, `**/lib`
// finds `src/lib`, `**/` lists every directory. Bash's manual, "Pattern Matching". Like bash 5.2, the walk skips
// hidden names unless `dotglob` and does not descend through symbolic links (a link is listed, its target not
// walked). just-bash's walker matched only files below the first directory, so `src/**` matched nothing and
// `**/lib` no directory.
export default {
  title: 'globstar: ** matches zero or more directories, and everything below as the last component',
  upstream: 'src/shell/glob.ts GlobExpander.expand/expandSegments: keep a "**" component through expandSimple and, in expandSegments, match it as zero or more real directories (a new globstar walk) instead of expandRecursive',
  file: 'dist/bundle/index.js',
  edits: [
    {
      // `**` stays a component of its own (only with globstar); inside a component it is `*`.
      find: 'if(t.includes("**")&&this.globstar&&this.isGlobstarValid(t))n=await this.expandRecursive(t);else{let r=t.replace(/\\*\\*+/g,"*");n=await this.expandSimple(r)}',
      replace: 'n=await this.expandSimple(t.split("/").map(g=>this.globstar&&g==="**"?g:g.replace(/\\*\\*+/g,"*")).join("/"));',
    },
    {
      // The segments of the pattern's first call: bash writes the zero-directory match of a literal `dir/**` as `dir/`.
      find: 'if(s===-1)return[t];',
      replace: 'if(s===-1)return[t];this.globstarTop=r.length-s;',
    },
    {
      find: 'async expandSegments(t,n,r){',
      replace: 'async expandSegments(t,n,r){let gsTop=this.globstarTop===r.length;this.globstarTop=-1;',
    },
    {
      find: 'let[s,...i]=r,o=[];try{',
      replace: 'let[s,...i]=r,o=[];if(s==="**"&&this.globstar){let g=[];if(i.length===0){if(n!==""&&n!=="/")try{(await this.fs.stat(t)).isDirectory&&g.push(gsTop?`${n}/`:n)}catch(m){if(m instanceof x)throw m}}else g.push(...await this.expandSegments(t,n,i));await this.globstarWalk(t,n,i,g);return g}try{',
    },
    {
      // The walk: every entry below `t` (the last component), or the rest of the pattern in every directory below.
      find: 'async expandRecursive(t){',
      replace: 'async globstarWalk(t,n,r,o){this.checkOpsLimit();let a;try{a=this.fs.readdirWithFileTypes?await this.fs.readdirWithFileTypes(t):await Promise.all((await this.fs.readdir(t)).map(async m=>{let p=t==="/"?`/${m}`:`${t}/${m}`,q=this.fs.lstat?await this.fs.lstat(p):await this.fs.stat(p);return{name:m,isDirectory:q.isDirectory&&!q.isSymbolicLink}}))}catch(m){if(m instanceof x)throw m;return}for(let d of a){if(d.name==="."||d.name===".."||d.name.startsWith(".")&&!this.dotglob)continue;let p=t==="/"?`/${d.name}`:`${t}/${d.name}`,h=n===""?d.name:n==="/"?`/${d.name}`:`${n}/${d.name}`;r.length===0&&o.push(h);if(d.isDirectory){r.length>0&&o.push(...await this.expandSegments(p,h,r));await this.globstarWalk(p,h,r,o)}}}async expandRecursive(t){',
    },
  ],
};
