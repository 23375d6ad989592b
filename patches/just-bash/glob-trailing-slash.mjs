// A glob ending in `/` matches directories only (and symbolic links to them), and each match keeps the slash:
// `ls -d */` lists `docs/ src/`, not every file. Bash's manual, "Pathname Expansion"; just-bash split the pattern on
// `/`, dropped the empty last segment and so matched files too.
export default {
  title: 'a glob ending in / matches only directories and keeps the slash',
  upstream: 'src/shell/glob.ts GlobExpander.expandSimple: when the pattern ends with "/", keep the matches that stat as directories and append "/"',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'let a=r.slice(s);return(await this.expandSegments(i,o,a)).sort()}',
      replace: 'let a=r.slice(s),l=(await this.expandSegments(i,o,a)).sort();if(!t.endsWith("/"))return l;let d=[];for(let p of l)try{this.checkOpsLimit(),(await this.fs.stat(this.fs.resolvePath(this.cwd,p))).isDirectory&&d.push(p.endsWith("/")?p:`${p}/`)}catch(m){if(m instanceof x)throw m}return d}',
    },
  ],
};
