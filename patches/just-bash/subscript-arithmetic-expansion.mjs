// An array subscript that holds an arithmetic expansion, `${a[$((i+1))]}`, expands it as any word does (bash's
// manual, "Arrays": the subscript undergoes parameter and variable expansion, arithmetic expansion, command
// substitution and quote removal). just-bash's subscript expander took `$((…))` for a command substitution of
// `(…)` and ran `i+1` as a command, so the subscript came out empty (`${a[]}: bad substitution`).
export default {
  title: 'an arithmetic expansion in an array subscript is expanded',
  upstream: 'src/interpreter/expansion/parameter-ops.ts expandSubscriptForAssocArray: treat "$((" … "))" as an arithmetic expansion (expand the text as a word) before the "$(" command substitution case',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'let c=n.slice(o+2,l-1);if(e.execFn){let u=await e.execFn(c,{signal:e.state.signal});',
      replace: 'let c=n.slice(o+2,l-1);if(c[0]==="("&&c.endsWith(")"))i+=await se(e,new Q().parseWordFromString(n.slice(o,l),!0,!1));else if(e.execFn){let u=await e.execFn(c,{signal:e.state.signal});',
    },
  ],
};
