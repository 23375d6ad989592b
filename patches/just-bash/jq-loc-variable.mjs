// jq's `$__loc__` is `{"file":"<top-level>","line":N}`, N the program line it is written on (1-based):
// `jq -n '$__loc__'` prints {"file":"<top-level>","line":1}. just-bash took it for an unset variable (null).
// jq 1.6 src/parser.y (`$__loc__` becomes a constant object with the token's line).
export default {
  title: 'jq $__loc__ is {"file":"<top-level>","line":N}',
  upstream: 'src/commands/query-engine parser: $__loc__ parses to a literal {file:"<top-level>", line} from the token position',
  file: 'dist/bundle/chunks/chunk-6KK46B7Q.js',
  edits: [
    {
      find: 'a?n.push({type:a,value:h,pos:i}):n.push({type:"IDENT",value:h,pos:i})',
      replace: 'a?n.push({type:a,value:h,pos:i}):n.push({type:"IDENT",value:h,pos:i,...(h==="$__loc__"?{line:e.slice(0,i).split(`\\n`).length}:{})})',
    },
    {
      find: 'if(t.startsWith("$"))return{type:"VarRef",name:t}',
      replace: 'if(t==="$__loc__")return{type:"Literal",value:{file:"<top-level>",line:this.tokens[this.pos-1].line??1}};if(t.startsWith("$"))return{type:"VarRef",name:t}',
    },
  ],
};
