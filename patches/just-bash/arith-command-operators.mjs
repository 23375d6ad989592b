// `(( x -= 4, x *= 2 ))` and `(( x <<= 3 ))` are arithmetic commands: just-bash read the first as two nested
// subshells running a command `x` with an option `-=` (its guess for `((cmd -opt) )` took any word followed by `-`,
// or `/` as in `x /= 2`),
// and took the `<<` of `<<=` for a here-document. Bash's manual, "Conditional Constructs" ((…)) and "Shell
// Arithmetic" (the assignment operators `-=`, `<<=`, …).
export default {
  title: '(( x -= 1 )) and (( x <<= 3 )) parse as arithmetic commands',
  upstream: 'src/parser/lexer.ts Lexer.looksLikeNestedSubshells: a "-" after the first word means an option only when a letter or "-" follows it, a "/" a path only when a name character follows; Lexer.nextToken: "<<" inside (( )) does not start a here-document delimiter',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'if(i==="<"&&o==="<")return this.pos=n+2,this.column=s+2,this.pendingHeredocDelimiterMode=!1,',
      replace: 'if(i==="<"&&o==="<")return this.pos=n+2,this.column=s+2,this.pendingHeredocDelimiterMode=this.dparenDepth>0?void 0:!1,',
    },
    {
      find: 'if(c>l&&(u==="-"||u===\'"\'||u==="\'"||u==="$"||/[a-zA-Z_/.]/.test(u))){',
      // "/" starts a path argument only when a name follows it (`x /= 2`, `x / 2` are arithmetic).
      replace: 'if(c>l&&(u==="-"&&/[a-zA-Z-]/.test(n[c+1]??"")||u===\'"\'||u==="\'"||u==="$"||/[a-zA-Z_.]/.test(u)||u==="/"&&/[\\w.~-]/.test(n[c+1]??""))){',
    },
  ],
};
