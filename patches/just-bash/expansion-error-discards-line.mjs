// An expansion error — a pattern that matches nothing under `shopt -s failglob`, an arithmetic error such as a
// division by 0 — makes a non-interactive bash abandon the rest of the line it is running (the complete command it
// read: every statement up to the newline, including the rest of a function or loop it was in) with status 1, and
// go on with the next line; a subshell or command substitution abandons only itself. Bash's manual, "Filename
// Expansion" (failglob: "the command is not executed") and bash's jump_to_top_level(DISCARD). just-bash failed only the
// one command and ran the rest of the line (`echo *.x; echo "status=$?"` printed `status=1`).
// The parser marks a top-level statement that continues the previous one's line, and the serializer keeps it there.
export default {
  title: 'a failglob or arithmetic expansion error abandons the rest of the line',
  upstream: 'src/parser/parser.ts parseScript (mark statements on the line of the previous one), src/ast/serializer.ts (write them there), src/interpreter/interpreter.ts executeScript/executeStatement (a discard flag set by a GlobError skips the rest of the line; subshells restore it)',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'let i=this.pos,o=this.parseStatement();o&&t.push(o)',
      replace: 'let i=this.pos,spzLine=this.current().line,o=this.parseStatement();o&&(o.spzEnd=this.current().line,t.length>0&&t[t.length-1].spzEnd===spzLine&&(o.spzJoined=!0),t.push(o))',
    },
    {
      find: 'function gn(e){return e.statements.map(wl).join(`\n`)}',
      replace: 'function gn(e){return e.statements.map((s,k)=>(k===0?"":s.spzJoined?e.statements[k-1].background?" ":"; ":`\n`)+wl(s)).join("")}',
    },
    {
      find: 'for(let s of t.statements)try{let i=await this.executeStatement(s);r.appendResult(i,Ys(i)),n=i.exitCode,this.ctx.state.lastExitCode=n,this.ctx.state.env.set("?",String(n))}catch(i){',
      replace: 'let spzSkip=!1;for(let s of t.statements)try{if(spzSkip&&s.spzJoined)continue;spzSkip=!1;let i=await this.executeStatement(s);r.appendResult(i,Ys(i)),n=i.exitCode,this.ctx.state.lastExitCode=n,this.ctx.state.env.set("?",String(n)),this.ctx.state.spzDiscard&&(this.ctx.state.spzDiscard=!1,spzSkip=!0)}catch(i){this.ctx.state.spzDiscard=!1;',
    },
    { find: 'if(i instanceof ce){r.append(', replace: 'if(i instanceof ce){spzSkip=!0,r.append(' },
    // While a line is being abandoned, no statement of it runs.
    { find: 'if(this.ctx.state.options.noexec)return ne;', replace: 'if(this.ctx.state.spzDiscard)return L("","",1);if(this.ctx.state.options.noexec)return ne;' },
    { find: 'if(u==="&&"&&r!==0||u==="||"&&r===0)continue;', replace: 'if(this.ctx.state.spzDiscard)break;if(u==="&&"&&r!==0||u==="||"&&r===0)continue;' },
    { find: 'if(r?.finish(),s instanceof Lt)return D(s.stderr)', replace: 'if(r?.finish(),s instanceof Lt)return this.ctx.state.spzDiscard=!0,D(s.stderr)' },
    { find: 'if(o instanceof Lt)return{stdout:"",stderr:o.stderr,exitCode:1}', replace: 'if(o instanceof Lt)return e.state.spzDiscard=!0,{stdout:"",stderr:o.stderr,exitCode:1}' },
    // A subshell abandons only itself: leaving it restores the flag.
    { find: 'groupStdinSourceFd:e.groupStdinSourceFd,', replace: 'groupStdinSourceFd:e.groupStdinSourceFd,spzDiscard:e.spzDiscard,' },
  ],
};
