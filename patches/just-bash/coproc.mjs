// `coproc [NAME] command` (bash's manual, "Coprocesses"): the command runs with its stdin and stdout connected to the
// shell through two descriptors, NAME[1] to write to it and NAME[0] to read what it prints (NAME defaults to
// COPROC; a name is given only before a compound command), its pid in NAME_PID and `$!`, its status for `wait`. The
// interpreter runs one command at a time, so the coprocess runs when it is started (on no input: one that reads
// nothing prints then; one whose first command is `read` waits for its first input instead), and
// again, after each command that wrote to NAME[1], on what that command wrote; what it prints is appended to what
// NAME[0] reads. That is bash's answer for the line-at-a-time filters coprocesses are used with (`cat`, `tr`, `bc`,
// `sed`); a coprocess that keeps state between writes starts afresh each time. `{NAME[1]}>&-` and other
// `{name[subscript]}` redirections name an array element (bash 5.2). just-bash had no coproc (a syntax error).
export default {
  title: 'coproc runs a coprocess whose descriptors the shell writes to and reads from',
  upstream: 'src/parser/parser.ts parseCommand: parse coproc [NAME] command into a Coproc node; src/interpreter: run it on what is written to NAME[1] after each command, its output read from NAME[0]; lexer scanFdVariable and redirections: {name[sub]} fd variables',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'case E.TIME:break;case E.BANG:',
      replace: 'case E.COPROC:{this.advance();let n="COPROC";this.check(E.NAME,E.WORD)&&[E.LBRACE,E.LPAREN,E.WHILE,E.UNTIL,E.IF,E.FOR,E.CASE,E.DPAREN_START,E.DBRACK_START].includes(this.peek(1).type)&&(n=this.advance().value);return{type:"Coproc",name:n,body:this.parseCommand(),line:t.line}}case E.TIME:break;case E.BANG:',
    },
    {
      find: 'case"ArithmeticCommand":return op(e);',
      replace: 'case"ArithmeticCommand":return op(e);case"Coproc":return`coproc ${e.name==="COPROC"?"":`${e.name} `}${El(e.body)}`;',
    },
    {
      find: 'case"ArithmeticCommand":return this.executeArithmeticCommand(t);',
      replace: 'case"ArithmeticCommand":return this.executeArithmeticCommand(t);case"Coproc":return _jbCoproc(this.ctx,t);',
    },
    {
      find: 'let o=await qi(this.ctx,s);',
      replace: 'let _cp=this.ctx.state.coprocs?.length?await _jbCoprocPump(this.ctx):"";_cp&&(i={...i,stderr:i.stderr+_cp});let o=await qi(this.ctx,s);',
    },
    {
      find: 'function lt(e,t,n){',
      replace: [
        // A `{name[sub]}` descriptor variable: the array element (a numeric subscript or a variable holding one).
        'function _jbFdVarKey(e,n){let m=/^([a-zA-Z_][a-zA-Z0-9_]*)\\[(.+)\\]$/.exec(n);if(!m)return null;let s=m[2];return[m[1],/^\\d+$/.test(s)?s:String(Number.parseInt(e.state.env.get(s)??"0",10)||0)]}',
        'function _jbFdVarGet(e,n){let k=_jbFdVarKey(e,n);return k?e.state.arrays?.get(k[0])?.elements?.get(k[1]):e.state.env.get(n)}',
        'function _jbFdVarSet(e,n,v){let k=_jbFdVarKey(e,n);k?Z(e,k[0],k[1],v,"indexed"):e.state.env.set(n,v)}',
        'function _jbCoprocUsed(e,n){return bn(e,n)||(e.state.coprocs??[]).some(c=>c.r===n||c.w===n)||(e.state.processSubstitutions??[]).some(p=>p.fd===n)||(e.state.heldProcSubs??[]).some(p=>p.fd===n)}',
        // Runs the coprocess on input; its output is appended to what its read descriptor holds, its stderr returned.
        // Its status is kept by pid, for `wait $NAME_PID`.
        'async function _jbCoprocRun(e,c,input){let a=await zc(e,M.script([M.statement([M.pipeline([c.body])])]),input),o=xt(a),r=tt(e,c.r);o&&r?.kind==="input"&&lt(e,c.r,{kind:"input",content:r.content+o});(e.state.coprocStatus??=new Map).set(c.pid,a.exitCode);return a.stderr}',
        // Whether the first command a coprocess runs is `read`: it waits for its input, so it does not run before any.
        'function _jbCoprocWaits(n){let q=[n];for(;q.length;){let x=q.shift();if(Array.isArray(x)){q.unshift(...x);continue}if(!x||typeof x!=="object")continue;if(x.type==="SimpleCommand")return x.name?.parts?.length===1&&x.name.parts[0].value==="read";if(x.type==="Word")continue;q.unshift(...Object.values(x))}return!1}',
        'async function _jbCoproc(e,t){let C=e.state.coprocs??=[],r=63;for(;_jbCoprocUsed(e,r);)r--;let w=r-3;for(;_jbCoprocUsed(e,w);)w--;let path=`${os}/${w}`,pid=e.state.nextVirtualPid++,c={name:t.name,r,w,path,body:t.body,pid};C.push(c),await qp(e,path,""),lt(e,w,{kind:"output",path,append:!0}),lt(e,r,{kind:"input",content:""}),e.state.arrays?.delete(t.name),e.state.env.delete(t.name),Z(e,t.name,"0",String(r),"indexed"),Z(e,t.name,"1",String(w),"indexed"),e.state.env.set(`${t.name}_PID`,String(pid)),e.state.lastBackgroundPid=pid,e.state.env.set("!",String(pid));(e.state.coprocStatus??=new Map).set(pid,0);let s=_jbCoprocWaits(t.body)?"":await _jbCoprocRun(e,c,"");return L("",s,0)}',
        // After each command: each coprocess reads what was written to it; one whose write end is closed and drained ends.
        'async function _jbCoprocPump(e){let C=e.state.coprocs;if(!C?.length||e.state.coprocPumping)return"";e.state.coprocPumping=!0;let s="";try{for(let c of[...C]){let i="";try{i=await vn(e.fs,c.path)}catch{}if(i){await qp(e,c.path,""),s+=await _jbCoprocRun(e,c,i);continue}let d=tt(e,c.w);if(!(d?.kind==="output"&&d.path===c.path)){C.splice(C.indexOf(c),1);try{await e.fs.rm(c.path,{force:!0})}catch{}}}}finally{e.state.coprocPumping=!1}return s}',
        'function lt(e,t,n){',
      ].join(''),
    },
    {
      // {name[sub]} in the lexer
      find: 'scanFdVariable(t){let n=this.input,r=n.length,s=t+1,i=s;for(;s<r;){let u=n[s];if(s===i){if(!(u>="a"&&u<="z"||u>="A"&&u<="Z"||u==="_"))return null}else if(!(u>="a"&&u<="z"||u>="A"&&u<="Z"||u>="0"&&u<="9"||u==="_"))break;s++}',
      replace: 'scanFdVariable(t){let n=this.input,r=n.length,s=t+1,i=s;for(;s<r;){let u=n[s];if(s===i){if(!(u>="a"&&u<="z"||u>="A"&&u<="Z"||u==="_"))return null}else if(!(u>="a"&&u<="z"||u>="A"&&u<="Z"||u>="0"&&u<="9"||u==="_"))break;s++}if(s>i&&n[s]==="["){let q=n.indexOf("]",s);if(q>s+1&&!/[\\s{}]/.test(n.slice(s+1,q)))s=q+1}',
    },
    {
      find: 'let R=Number.parseInt(e.state.env.get(y.fdVariable)??"",10);',
      replace: 'let R=Number.parseInt(_jbFdVarGet(e,y.fdVariable)??"",10);',
    },
    {
      find: 'lt(e,C,{kind:"input",content:A}),e.state.env.set(y.fdVariable,String(C)),',
      replace: 'lt(e,C,{kind:"input",content:A}),_jbFdVarSet(e,y.fdVariable,String(C)),',
    },
    {
      find: '$.sourceFd<Se&&kt(e,$.sourceFd),e.state.env.set(y.fdVariable,String(A)),',
      replace: '$.sourceFd<Se&&kt(e,$.sourceFd),_jbFdVarSet(e,y.fdVariable,String(A)),',
    },
    {
      // a command (the shell engine's `wait`) learns a coprocess's status by its pid
      find: 'fileDescriptors:i.state.fileDescriptors,xpgEcho:',
      replace: 'spzCoprocStatus:(p)=>i.state.coprocStatus?.get(p),fileDescriptors:i.state.fileDescriptors,xpgEcho:',
    },
  ],
};
