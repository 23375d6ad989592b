// `declare NAME` (`typeset`, `-a`, `-A`, `-i`… with no value) in a function makes NAME a new local variable, unset
// until assigned (bash(1) "declare": "When used in a function, declare and typeset make each name local, as with the
// local command"; a local without a value is unset). just-bash kept the global's value for it: after `arr=(1 2)`,
// `f() { declare -a arr; echo ${#arr[@]}; }` printed 2, and `declare x` in a function still read the global x.
// The global comes back when the function returns, as it did.
export default {
  title: 'declare without a value in a function starts a new unset local',
  upstream: 'src/interpreter/builtins/declare.ts: for a name without a value inside a function (no -g), when it is not yet local in the current scope, save it to the local scope and unset the variable (scalar value and array elements)',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'if(r||s?k(O):v(O),l){',
      replace: 'let Zf=S&&!e.state.localScopes.at(-1).has(O)&&!l;if(Zf?k(O):r||s?k(O):v(O),Zf&&(e.state.env.delete(O),e.state.arrays?.delete(__jbArrName(e,O))),l){',
    },
  ],
};
