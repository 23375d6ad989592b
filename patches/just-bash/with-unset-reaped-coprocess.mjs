// A coprocess that has ended (its write end closed and what it was given read, or a body that reads no input:
// `coproc C { true; }`) is reaped as bash reaps it, when the shell next waits for a child (`sleep`, `wait`): bash
// then unsets NAME and NAME_PID (bash's manual, "Coprocesses": "the coprocess's file descriptors and ... NAME_PID
// ... are unset when the coprocess exits"; execute_cmd.c coproc_unsetvars on reaping). A body counts as reading no
// input only when every command in it is one that never reads stdin (true, echo, printf, sleep, …).
const QUIET = 'true false : echo printf sleep exit return date pwd ls touch mkdir rm cp mv ln kill seq env hostname uname id whoami basename dirname test [ let export local declare set unset shift';
const helper =
  `function _jbCoprocQuiet(n){let Q=new Set(${JSON.stringify(QUIET.split(' '))}),q=[n],seen=!1;for(;q.length;){let x=q.shift();if(Array.isArray(x)){q.unshift(...x);continue}if(!x||typeof x!=="object")continue;if(x.type==="SimpleCommand"){let p=x.name?.parts;if(!p||p.length!==1||p[0].type!=="Literal"||!Q.has(p[0].value))return!1;seen=!0}if(x.type==="Word")continue;q.unshift(...Object.values(x))}return seen}` +
  'function _jbCoprocReap(e){let D=e.state.coprocDead;if(!D?.length)return;e.state.coprocDead=[];for(let c of D){let C=e.state.coprocs,i=C?.indexOf(c)??-1;i>=0&&C.splice(i,1);let a=e.state.arrays?.get(c.name);a?.elements?.get("0")===String(c.r)&&(e.state.arrays.delete(c.name),e.state.env.delete(c.name));e.state.env.get(`${c.name}_PID`)===String(c.pid)&&e.state.env.delete(`${c.name}_PID`)}}';
export default {
  title: 'a coprocess that ended is reaped when the shell next waits: NAME and NAME_PID are unset',
  upstream: 'src/interpreter (coproc support): mark a coprocess dead when it ends, and unset its variables when the shell next waits for a child',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'let s=_jbCoprocWaits(t.body)?"":await _jbCoprocRun(e,c,"");return L("",s,0)}',
      replace: 'let s=_jbCoprocWaits(t.body)?"":await _jbCoprocRun(e,c,"");_jbCoprocQuiet(t.body)&&(e.state.coprocDead??=[]).push(c);return L("",s,0)}',
    },
    { find: 'C.splice(C.indexOf(c),1);', replace: 'C.splice(C.indexOf(c),1),(e.state.coprocDead??=[]).push(c);' },
    {
      find: 'try{return __jbKilledReport(this.ctx,t,await __jbTrappedSignal(this.ctx,()=>this.runCommand(u,f,d,n,!1,!1,g,y)))}',
      replace: 'try{let _rv=await __jbTrappedSignal(this.ctx,()=>this.runCommand(u,f,d,n,!1,!1,g,y));/^(sleep|wait|__spritzer_wait)$/.test(u)&&_jbCoprocReap(this.ctx);return __jbKilledReport(this.ctx,t,_rv)}',
    },
    { find: 'async function rn(e,t,n,r,s=new Map,i=new Map,o="bash",a=!1){', replace: `${helper}async function rn(e,t,n,r,s=new Map,i=new Map,o="bash",a=!1){` },
  ],
};
