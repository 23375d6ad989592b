// `set -v` prints each input line as the shell reads it, to stderr (so through `exec 2>&1`), before running what it
// read: whole lines, comments included, a line of several commands once (`x=1; y=2`), every line of a compound
// command before its first command runs. Bash's manual, "The Set Builtin" (-v). The engine gives the shell the
// script as written (`scriptText`); the lines of each top-level statement are printed before it runs, the statement
// read up to its last line (the lines after the last one printed, even while -v was off, are the ones read since).
// Without `scriptText` (another caller of the interpreter) a statement's own text is printed, as before. just-bash
// printed each executed statement's text (the engine's rewrite of it) on the shell's stderr, whatever fd 2 was.
export default {
  title: 'set -v prints the input lines as read',
  upstream: 'src/interpreter/interpreter.ts executeStatement: for a top-level statement print the source lines read since the last one (through the current fd 2) instead of the statement text',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'this.ctx.state.options.verbose&&!this.ctx.state.suppressVerbose&&t.sourceText&&n.append("stderr",`${t.sourceText}\n`);',
      replace:
        'let __v=(e=>{let s=e.state;if(s.scriptText===void 0){s.options.verbose&&!s.suppressVerbose&&t.sourceText&&n.append("stderr",`${t.sourceText}\n`);return}' +
        'let top=s.topLevelScript;if(!top)return;s.spzTopSet&&s.spzTopOf===top||(s.spzTopSet=new Set(top.statements),s.spzTopOf=top);if(!s.spzTopSet.has(t)||s.suppressVerbose)return;' +
        // The line ranges of the script's statements as written: each statement's text found in turn in the script.
        'if(!s.spzSrcRanges){s.spzSrcRanges=[];s.spzSrcLines=s.scriptText.split("\\n");let at=0,nl=x=>x.match(/\\n/g)?.length??0;' +
        'try{for(let o of Ge(s.scriptText).statements){let src=o.sourceText??"",i=src?s.scriptText.indexOf(src,at):-1;if(i<0)continue;let a=nl(s.scriptText.slice(0,i))+1;s.spzSrcRanges.push([a,a+nl(src)]);at=i+src.length}}catch{}}' +
        // The first line a command of this statement carries, and the statement as written that holds it.
        'let first=(o,d=0)=>{if(!o||typeof o!="object"||d>40)return;if(typeof o.line=="number"&&o.type!=="Statement")return o.line;for(let v of Object.values(o)){let r=first(v,d+1);if(r!==void 0)return r}},f=first(t);if(f===void 0)return;' +
        'let r=s.spzSrcRanges.find(([a,b])=>a<=f&&f<=b),a=(s.spzReadLine??0)+1,b=Math.max(r?r[1]:f,s.spzReadLine??0);s.spzReadLine=b;' +
        'if(s.options.verbose&&b>=a)return s.spzSrcLines.slice(a-1,b).map(l=>`${l}\\n`).join("")})(this.ctx);' +
        // Written to the shell's fd 2 as it stands (`exec 2>&1` included), not the statement's own redirections.
        'if(__v){let __r=await rn(this.ctx,{stdout:"",stderr:__v,exitCode:0},[]);n.appendResult(__r,Ys(__r))}',
    },
  ],
};
