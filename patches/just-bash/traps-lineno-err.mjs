// When a command fails and the ERR trap runs, bash's `$LINENO` is the line where that command ended: the `)` of a
// subshell (`( true` / `exit 1 )` on lines 2–3 reports 3), the last line of a command whose `$( … )` or
// continuation spans lines. just-bash left `$LINENO` where the last simple command it ran had set it: the line before a
// failing `( exit 3 )`, or a line inside a subshell or command substitution that ran before. Each command now records
// how many lines it spans (a count, which the line shifting of function bodies and substitutions leaves right).
export default {
  title: 'the ERR trap\'s $LINENO is the line where the failing command ended (a subshell\'s `)`)',
  upstream: 'src/parser/parser.ts parseCommand (record the lines from the command\'s first token to the end of its last) and src/interpreter/interpreter.ts executeStatement (before the ERR trap, set currentLine to the failing command\'s last line)',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'parseCommand(){let _l=this.current().line,_c=this._spzParseCommand();return _c&&_c.line===void 0&&(_c.line=_l),_c}',
      replace: 'parseCommand(){let _l=this.current().line,_c=this._spzParseCommand(),_t=this.tokens[this.pos-1];if(_c&&_t&&typeof _t.line=="number"&&typeof _l=="number"){let _e=_t.line,_x=this._input?.slice(_t.start,_t.end??_t.start)??"";for(let _i=0;_i<_x.length;_i++)_x.charCodeAt(_i)===10&&_e++;_e>_l&&Object.defineProperty(_c,"spzSpan",{value:_e-_l,enumerable:!1,configurable:!0})}return _c&&_c.line===void 0&&(_c.line=_l),_c}',
    },
    {
      find: 'if(this.ctx.state.errexitSafe=o||i||a,await _jbStatementTraps(this.ctx,n,r!==0&&s===t.pipelines.length-1&&!i&&!this.ctx.state.inCondition&&!a&&_jbErrCommand(t.pipelines[s]),t._top)',
      replace: 'let _ef=r!==0&&s===t.pipelines.length-1&&!i&&!this.ctx.state.inCondition&&!a&&_jbErrCommand(t.pipelines[s]),_lc=t.pipelines[s]?.commands?.at(-1);if(_ef&&_lc&&typeof _lc.line=="number"&&this.ctx.state.traps?.get("ERR")?.action)this.ctx.state.currentLine=_lc.line+(_lc.spzSpan??0);if(this.ctx.state.errexitSafe=o||i||a,await _jbStatementTraps(this.ctx,n,_ef,t._top)',
    },
  ],
};
