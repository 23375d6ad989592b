// `declare -ai a=(…)`, `declare -Ai m=(…)`, and `-l`/`-u` with an array: the attribute is the array's (`declare -p`
// shows `-ai`) and applies to every element assigned, as to a scalar (`-i` evaluates each value arithmetically,
// `-l`/`-u` convert its case). Bash's manual, "Bash Builtin Commands" (declare). just-bash applied them only to
// scalars, and stored an array's values as written.
export default {
  title: 'declare -i, -l, -u on an array assignment',
  upstream: 'src/interpreter/builtins/declare.ts (handleDeclare): after a compound array assignment, mark the integer/lowercase/uppercase attribute and apply it to each element',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'A(O),i&&Ze(e,O),o&&mt(e,O);continue}if(c){',
      replace:
        'A(O),i&&Ze(e,O),o&&mt(e,O);if(d||p||h){d&&No(e,O),p&&Ro(e,O),h&&Oo(e,O);let as=e.state.associativeArrays?.has(O);' +
        'for(let k of as?Et(e,O):ve(e,O)){let v=le(e,O,k)??"";d&&(v=await Fu(e,v));v=jn(e,O,v);as?Z(e,O,k,v,"associative"):Z(e,O,k,v)}}continue}if(c){',
    },
  ],
};
