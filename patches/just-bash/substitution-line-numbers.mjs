// `$LINENO` and the `line N:` of a message inside a command substitution count the script's lines, as bash 5.2
// does: a substitution's commands are numbered from the line of its closing parenthesis, one more for each line
// break between them (`y=$(⏎ echo $LINENO⏎)` on line 2 prints 4; `x=$(nope)` on line 2 reports `line 2:`), and
// inside a here-document from the line of the command that reads it. just-bash numbered a substitution's lines
// from 1, whatever line it stood on.
//
// At parse time each substitution records the line breaks before it in its word and inside it (`spzShift`; none in
// a here-document), which also lets a serializer write it back over as many lines (`spzLines`), and the commands
// of its body their line relative to its first command; running it gives those commands their absolute lines.
const mark = [
  'function _jbSubLines(R,t,n,hd){let p=R.part,k=s=>{let c=0;for(let i=0;i<s.length;i++)s.charCodeAt(i)===10&&c++;return c};',
  'p.spzLines=k(t.slice(n,R.endIndex));p.spzShift=hd?0:k(t.slice(0,n))+p.spzLines;let f,L=[],w=x=>{if(Array.isArray(x)){for(let y of x)w(y);return}',
  'if(!x||typeof x!="object"||x.type==="CommandSubstitution"||x.type==="ProcessSubstitution")return;',
  'if(typeof x.line=="number"&&x.type!=="Statement"){f===void 0&&(f=x.line);L.push(x)}for(let y in x)y!=="line"&&w(x[y])};',
  'w(p.body.statements);for(let x of L)x.spzRel=x.line-f;Object.defineProperty(p,"spzNodes",{value:L,enumerable:!1,configurable:!0});return R}',
].join('');
export default {
  title: 'commands inside a command substitution carry the script line bash reports for them',
  upstream: 'src/parser/parser.ts parseCommandSubstitution / processHeredocs and src/interpreter/expansion.ts (CommandSubstitution): record the line breaks before and inside the substitution and number its commands from the line of its closing parenthesis (here-documents: the command line)',
  file: 'dist/bundle/index.js',
  edits: [
    { find: 'function Ma(e,t,n,r){', replace: `${mark}function Ma(e,t,n,r){` },
    {
      find: 'parseCommandSubstitution(t,n){return Ma(t,n,()=>new e(this.parseBudget),r=>this.error(r))}',
      replace: 'parseCommandSubstitution(t,n){return _jbSubLines(Ma(t,n,()=>new e(this.parseBudget),r=>this.error(r)),t,n,this._spzHd)}',
    },
    {
      find: 't.quoted?r=M.word([M.literal(n.value)]):r=this.parseWordFromString(n.value,!1,!1,!1,!0)',
      replace: 't.quoted?r=M.word([M.literal(n.value)]):(this._spzHd=!0,r=this.parseWordFromString(n.value,!1,!1,!1,!0),this._spzHd=!1)',
    },
    {
      find: 'e.state.bashPid=e.state.nextVirtualPid++;let c=new Map(e.state.env),u=ot(e.state.arrays),f=e.state.cwd,d=e.state.suppressVerbose;',
      replace: 'if(t.spzNodes){let _b=e.state.currentLine+(t.spzShift||0);for(let _n of t.spzNodes)_n.line=_b+_n.spzRel}e.state.bashPid=e.state.nextVirtualPid++;let c=new Map(e.state.env),u=ot(e.state.arrays),f=e.state.cwd,d=e.state.suppressVerbose;',
    },
  ],
};
