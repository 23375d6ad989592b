// GNU sed's `e COMMAND` (run COMMAND, its output goes to sed's output there and then), `e` (run the pattern space
// as a command, the pattern space becomes its output less one trailing newline), the `s///e` flag (the same, after
// the substitution), and `-z`/`--null-data` (input and output lines end in NUL; `N`, `G`, `H`, `=` and `p` use NUL
// as the line separator). GNU sed manual, "Extended Commands" and "Command-Line Options". just-bash's executor
// refused `e` and its option parser `-z`.
//
// The executor runs a cycle synchronously, so a command cannot be awaited inside it: the cycle asks for the command,
// the run stops, the command runs through the shell (ctx.exec), and the run starts over with every answer so far
// replayed in order. Files written by `w` are flushed only at the end of a run, so a replayed run writes once.
// With -z the input's NUL and newline bytes trade places before the run and back after it: the executor's own line
// separator is then NUL for the data, and a newline in the data is an ordinary character (the sed wrapper turns the
// script's `\n` into a NUL character to match it).
export default {
  title: 'sed e COMMAND, e, s///e and -z (NUL-separated lines)',
  upstream: 'src/commands/sed/sed.ts (accept -z; processContent runs the e commands through ctx.exec), lexer.ts readExecute (to end of line) and readSubstitute (e flag), parser.ts parseSubstituteFromToken (evaluate), executor.ts execute and substitute',
  file: 'dist/bundle/chunks/chunk-CFBEDNHJ.js',
  edits: [
    {
      // The command of `e` runs to the end of the line, `;` included.
      find: '`||s===";")break;n+=this.advance()}return{type:c.EXECUTE',
      replace: '`)break;n+=this.advance()}return{type:c.EXECUTE',
    },
    {
      find: 'let u="";for(;this.pos<this.input.length;){let o=this.peek();',
      replace: 'let u="";for(;this.pos<this.input.length;){let o=this.peek();if(o==="e"){u+=this.advance();continue}',
    },
    { find: 'global:n.includes("g"),', replace: 'global:n.includes("g"),evaluate:n.includes("e"),' },
    {
      find: 'let E=d.slice(0,-2);return j(r.replacement,m,E)});',
      replace: 'let E=d.slice(0,-2);return j(r.replacement,m,E)});r.evaluate&&(e.patternSpace=sedShellOutput(e,e.patternSpace,!1));',
    },
    {
      find: 'case"execute":e.errorMessage="sed: e command (shell execution) is not supported in sandboxed environment",e.quit=!0;break;',
      replace: 'case"execute":if(i.command){let o=sedShellOutput(e,i.command,!0);o&&e.lineNumberOutput.push({raw:o})}else e.patternSpace=sedShellOutput(e,e.patternSpace,!1);break;',
    },
    {
      find: 'async function Q(i,e,t,n={}){',
      replace: 'function sedSwapNul(s){return s.replace(/[\\n\\0]/g,c=>c==="\\n"?"\\0":"\\n")}function sedShellOutput(e,c,raw){let X=e.sedReplay;if(!X||X.pending!==void 0)return"";if(X.n<X.cache.length){let o=X.cache[X.n++];return raw||(o=o.replace(/\\n$/,"")),X.nul?sedSwapNul(o):o}X.pending=X.nul?sedSwapNul(c):c;return""}function sedPending(g){if(g.sedReplay&&g.sedReplay.pending!==void 0)throw{sedPending:!0,command:g.sedReplay.pending}}async function Q(i,e,t,n={}){if(n.sedShell&&!n.sedReplay){let S=n.sedShell,X={cache:[],n:0,nul:S.nul};S.nul&&(i=sedSwapNul(i));for(;;){X.n=0,X.pending=void 0;try{let r=await Q(i,e,t,{...n,sedReplay:X});return S.nul?{...r,output:sedSwapNul(r.output)}:r}catch(y){if(!y||!y.sedPending)throw y;let r=await S.run(y.command);S.stderr+=r.stderr,X.cache.push(r.stdout)}}}',
    },
    { find: 'patternSpace:m[R],holdSpace:w,', replace: 'patternSpace:m[R],holdSpace:w,sedReplay:n.sedReplay,' },
    { find: 'g.pendingFileWrites=[],Z(e,g,F,he),', replace: 'g.pendingFileWrites=[],Z(e,g,F,he),sedPending(g),' },
    { find: 'for(let C of g.lineNumberOutput)v(`${C}\n`);', replace: 'for(let C of g.lineNumberOutput)v(typeof C=="object"?C.raw:`${C}\n`);' },
    {
      find: 'var He={name:"sed",async execute(i,e){',
      replace: 'var He={name:"sed",async execute(i,e){let SX={nul:!1,stderr:"",run:c=>e.exec?e.exec(c,{cwd:e.cwd}):Promise.resolve({stdout:"",stderr:"",exitCode:0})},R=await He.run(i,e,SX);return SX.stderr?{...R,stderr:SX.stderr+R.stderr}:R},async run(i,e,SX){',
    },
    { find: 'if(f==="-n"||f==="--quiet"||f==="--silent")a=!0;', replace: 'if(f==="-z"||f==="--null-data")SX.nul=!0;else if(f==="-n"||f==="--quiet"||f==="--silent")a=!0;' },
    { find: 'Q(b,h,m,{limits:e.limits', replace: 'Q(b,h,m,{sedShell:SX,limits:e.limits' },
    { find: 'Q(d,h,m,{limits:e.limits,fs:', replace: 'Q(d,h,m,{sedShell:SX,limits:e.limits,fs:' },
    { find: 'Q(d,h,m,{limits:e.limits,filename:', replace: 'Q(d,h,m,{sedShell:SX,limits:e.limits,filename:' },
  ],
};
