// `shopt -s nocaseglob` makes pathname expansion match without regard to case: `*.TXT` matches `a.txt`. Bash's
// manual, "The Shopt Builtin". just-bash accepted the option but never passed it to the glob expander.
export default {
  title: 'nocaseglob: pathname expansion ignores case',
  upstream: 'src/interpreter/expansion (every new GlobExpander) and src/shell/glob.ts GlobExpander: pass shoptOptions.nocaseglob, and build the name regex with the "i" flag when it is set',
  file: 'dist/bundle/index.js',
  edits: [
    { find: 'function Rp(e){return new Gt(e.fs,e.state.cwd,e.state.env,{', replace: 'function Rp(e){return new Gt(e.fs,e.state.cwd,e.state.env,{nocaseglob:e.state.shoptOptions.nocaseglob,' },
    { find: 'function is(e,t){let n=new Gt(e.fs,e.state.cwd,e.state.env,{', replace: 'function is(e,t){let n=new Gt(e.fs,e.state.cwd,e.state.env,{nocaseglob:e.state.shoptOptions.nocaseglob,' },
    { find: 'return{target:s};let c=new Gt(e.fs,e.state.cwd,e.state.env,{', replace: 'return{target:s};let c=new Gt(e.fs,e.state.cwd,e.state.env,{nocaseglob:e.state.shoptOptions.nocaseglob,' },
    { find: 'this.extglob=s.extglob??!1,', replace: 'this.extglob=s.extglob??!1,this.nocaseglob=s.nocaseglob??!1,' },
    { find: 'patternToRegex(t){let n=this.patternToRegexStr(t);return ge(`^${n}$`)}', replace: 'patternToRegex(t){let n=this.patternToRegexStr(t);return ge(`^${n}$`,this.nocaseglob?"i":"")}' },
  ],
};
