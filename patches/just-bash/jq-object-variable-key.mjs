// In jq's object construction `{$name}` is `{name: $name}` (jq's manual, "Object Construction": `{$foo}` is
// shorthand for `{foo: $foo}`; `{$__loc__}` gives `{"__loc__": {file, line}}`), and `{$name: v}` is a syntax
// error. just-bash read `$name` there as a field name: `--arg k v '{$k}'` gave `{"$k":null}`.
export default {
  title: 'jq {$name} builds {"name": $name}',
  upstream: 'src/commands/query-engine/parser parseObjectConstruction: a $variable key is the shorthand for name: $variable',
  file: 'dist/bundle/chunks/chunk-6KK46B7Q.js',
  edits: [
    {
      find: 'else if(this.isIdentLike()){let s=this.advance().value;this.match("COLON")?(t=s,r=this.parseObjectValue()):(t=s,r={type:"Field",name:s})}',
      replace: 'else if(this.isIdentLike()){let s=this.advance().value;if(s.startsWith("$")&&s.length>1){if(this.check("COLON"))throw new Error(`Unexpected token COLON at position ${this.peek().pos}`);t=s.slice(1),r=s==="$__loc__"?{type:"Literal",value:{file:"<top-level>",line:this.tokens[this.pos-1].line??1}}:{type:"VarRef",name:s}}else this.match("COLON")?(t=s,r=this.parseObjectValue()):(t=s,r={type:"Field",name:s})}',
    },
  ],
};
