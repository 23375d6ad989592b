// A `$(…)` inside arithmetic is an ordinary command substitution, run like one in a word: it sees the shell's
// functions and variables (`fib() { …; echo $(( $(fib $((n-1))) + $(fib $((n-2))) )); }` recurses), and its output
// is then part of the expression, so `$(( $(echo 2*3) + 1 ))` is 7 (bash's manual, "Arithmetic Expansion": the
// expression undergoes "command substitution" before it is evaluated). just-bash ran it as a separate script that
// knew none of the shell's functions and read its output only as a leading integer.
export default {
  title: 'a $(…) inside arithmetic runs as any command substitution and its output is evaluated',
  upstream: 'src/interpreter/arithmetic.ts evaluateArithmetic (ArithCommandSubst): expand the substitution with the word expander (parseWordFromString + expandWord) and evaluate its output as an arithmetic expression',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'case"ArithCommandSubst":{if(e.execFn){let i=await e.execFn(t.command,{signal:e.state.signal});i.stderr&&(e.state.expansionStderr=(e.state.expansionStderr||"")+i.stderr);let o=i.stdout.trim();return Number.parseInt(o,10)||0}return 0}',
      // What the expansion already left for stderr (a `set -x` trace of the `(( … ))` it belongs to, which ran the
      // substitution once to show its text) is kept, and that rerun is not traced a second time.
      replace: 'case"ArithCommandSubst":{let p=e.state.expansionStderr,x=e.state.options.xtrace,o;p&&(e.state.options.xtrace=!1);try{o=(await se(e,new Q().parseWordFromString("$("+t.command+")",!0,!1))).trim()}finally{e.state.options.xtrace=x,p&&(e.state.expansionStderr=p+(e.state.expansionStderr||""))}if(!o)return 0;if(/^-?\\d+$/.test(o))return Number.parseInt(o,10);let{expr:c}=On(new Q,o,0);return await s(c)}',
    },
  ],
};
