// A command name that comes from an unquoted expansion is split into words like any other word, and the first is
// the command: `cmd="ls -d src"; $cmd` runs ls with two arguments, `$PYTHON -m venv` with PYTHON="python3 -u" too.
// Bash's manual, "Simple Command Expansion" (the words are expanded, then the first is the command name) and "Word
// Splitting". just-bash expanded the name without splitting and looked up `ls -d src` as one command name.
export default {
  title: 'an unquoted expansion in the command name is split into words',
  upstream: 'src/interpreter/interpreter.ts executeSimpleCommand: expand the name word with expandWordWithGlob when it holds an expansion (quoted or not); the first field is the command, the others come before the arguments',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'let u=await se(this.ctx,t.name),f=[],d=[],p=(P,$)=>{',
      replace: 'let _v=t.name.parts.some(function _hx(P){return P.type==="ParameterExpansion"||P.type==="CommandSubstitution"||P.type==="ArithmeticExpansion"||P.type==="DoubleQuoted"&&P.parts.some(_hx)})?(await gt(this.ctx,t.name)).values:null,u=_v?_v[0]??"":await se(this.ctx,t.name),f=_v?_v.slice(1):[],d=f.map(()=>!1),p=(P,$)=>{',
    },
    {
      find: 'let m=t.name.parts.every(P=>P.type==="CommandSubstitution"||P.type==="ParameterExpansion"||P.type==="ArithmeticExpansion");',
      replace: 'let m=_v?_v.length===0:t.name.parts.every(P=>P.type==="CommandSubstitution"||P.type==="ParameterExpansion"||P.type==="ArithmeticExpansion");',
    },
  ],
};
