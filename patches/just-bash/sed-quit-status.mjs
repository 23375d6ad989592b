// GNU sed's `q N` and `Q N` end sed with exit status N (`sed q5 f; echo $?` prints the first line and 5), and
// `l N` takes a width: the lexer reads the optional number after these commands. GNU sed manual, "Commands
// Requiring a Script"; just-bash's executor honoured an exit code but its lexer stopped at the digit.
export default {
  title: "sed q N, Q N and l N read their number",
  upstream: "src/commands/sed/lexer.ts readCommand: after q, Q and l read an optional unsigned number into the token; parser.ts passes it on (exitCode, width)",
  file: "dist/bundle/chunks/chunk-CFBEDNHJ.js",
  edits: [
    { find: "case\"F\":return{type:c.COMMAND,value:n,line:e,column:t}", replace: "case\"F\":return{type:c.COMMAND,value:n,line:e,column:t,arg:\"qQl\".includes(n)?this.readNumberArgument():void 0}" },
    { find: "readLabelDef(){", replace: "readNumberArgument(){let p=this.pos;for(;this.input[p]===\" \"||this.input[p]===\"\\t\";)p++;let d=\"\";for(;p<this.input.length&&this.input[p]>=\"0\"&&this.input[p]<=\"9\";)d+=this.input[p++];if(d===\"\")return;for(;this.pos<p;)this.advance();return parseInt(d,10)}readLabelDef(){" },
    { find: "case\"q\":return{command:{type:\"quit\",address:t}};case\"Q\":return{command:{type:\"quitSilent\",address:t}};", replace: "case\"q\":return{command:{type:\"quit\",address:t,exitCode:e.arg}};case\"Q\":return{command:{type:\"quitSilent\",address:t,exitCode:e.arg}};" },
  ],
};
