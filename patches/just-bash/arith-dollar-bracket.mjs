// `$[expr]` is the old form of `$((expr))` (bash still expands it; expr.c reads it as a nested expression), also
// inside an arithmetic expression: `$(( $[1] + 1 ))` is 2. just-bash's arithmetic parser did not know it there and
// looped without moving on over the `$` it could not read, until the process ran out of memory. Here `$[…]` is a
// nested expression, and a `$` the parser cannot read ends the operand instead of looping.
export default {
  title: '$[expr] inside arithmetic is a nested expression (no endless loop)',
  upstream: 'src/parser/arithmetic-primaries.ts parseNestedArithmetic: accept "$[" … "]" as ArithNested; parseConcatenatedPrimary: stop when a primary does not advance',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'function Za(e,t,n,r){if(n.slice(r,r+3)!=="$((")return null;',
      replace: 'function Za(e,t,n,r){if(n.slice(r,r+2)==="$["){let s=r+2,i=1;for(;s<n.length&&i>0;)n[s]==="["?i++:n[s]==="]"&&i--,i>0&&s++;let{expr:l}=e(t,n.slice(r+2,s),0);return{expr:{type:"ArithNested",expression:l},pos:s+1}}if(n.slice(r,r+3)!=="$((")return null;',
    },
    {
      find: 'for(;wd(t,s);){let{expr:a,pos:l}=sl(e,t,s,!0);i.push(a),s=l}',
      replace: 'for(;wd(t,s);){let{expr:a,pos:l}=sl(e,t,s,!0);if(l<=s)break;i.push(a),s=l}',
    },
  ],
};
