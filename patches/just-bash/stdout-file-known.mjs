// A simple command's own redirections of its standard output to a file (`>`, `>|`, `>>`, `&>`, `&>>`, `1<>`) and
// of its standard input from one (`<`, `<>`) are made known to the command it runs (its context's `spzOutFile` and
// `spzInFile`, absolute paths), so that `cat` can refuse to copy a file onto itself as GNU cat does
// (cat-input-is-output). A `>&N` to a descriptor `exec` opened on a file counts as that file; `/dev/...` targets and what an
// enclosing compound command or `exec` redirected standard output to are not followed: the command then sees no file.
const helper = 'function __jbStdFiles(e,t,n){let o,i;t.forEach((r,s)=>{let k=n.get(s);if(k===void 0||r.target?.type==="HereDoc"||r.fdVariable)return;switch(r.operator){case">":case">|":case">>":(r.fd??1)===1&&(o=k);break;case"&>":case"&>>":o=k;break;case"<>":(r.fd??0)===1?o=k:(r.fd??0)===0&&(i=k);break;case"<":(r.fd??0)===0&&(i=k);break;case">&":if((r.fd??1)===1){let E=/^\\d+$/.test(k)?tt(e,Number(k)):null;o=E&&(E.kind==="output"||E.kind==="readwrite")&&E.path?E.path:void 0}break}});let a=p=>p===void 0||p.startsWith("/dev/")?void 0:e.fs.resolvePath(e.state.cwd,p);return{out:a(o),in:a(i)}}';
export default {
  title: 'a command knows the file its own redirections send its stdout to and take its stdin from',
  upstream: 'src/interpreter (simple command execution and the command context): pass the resolved stdout/stdin redirection files to the command',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'v=await _jbStdDeeper(this.ctx,t.redirections,()=>this.runCommand(u,f,d,n,!1,!1,g,y))',
      replace: 'v=await _jbStdDeeper(this.ctx,t.redirections,async()=>{let F=__jbStdFiles(this.ctx,t.redirections,b.targets),O=this.ctx.state.spzOutFile,I=this.ctx.state.spzInFile;this.ctx.state.spzOutFile=F.out,this.ctx.state.spzInFile=F.in;try{return await this.runCommand(u,f,d,n,!1,!1,g,y)}finally{this.ctx.state.spzOutFile=O,this.ctx.state.spzInFile=I}})',
    },
    {
      find: 'stdinClosed:i.state.stdinClosed===!0,stdinRegular:i.state.stdinClosed==="file",',
      replace: 'stdinClosed:i.state.stdinClosed===!0,stdinRegular:i.state.stdinClosed==="file",spzOutFile:i.state.spzOutFile,spzInFile:i.state.spzInFile,',
    },
    { find: 'async function rn(e,t,n,r,s=new Map,i=new Map,o="bash",a=!1){', replace: `${helper}async function rn(e,t,n,r,s=new Map,i=new Map,o="bash",a=!1){` },
  ],
};
