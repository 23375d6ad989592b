// `declare -fx NAME…` / `typeset -fx` export functions as `export -f` does, `declare -f +x NAME` takes the mark
// off, `declare -fr NAME` makes them read-only as `readonly -f` does; with names these print nothing (a NAME that is
// no function makes the status 1, silently), and `declare -fx` alone lists the exported functions as `export -f`
// does. Bash's manual, "Bash Builtin Commands" (declare: "-f Use function names only"; the attributes apply to the
// functions). just-bash took -f alone and printed the bodies, leaving the functions unexported.
export default {
  title: 'declare -fx / -fr set function attributes',
  upstream: 'src/interpreter/builtins/declare.ts (handleDeclare, -f branch): with -x/+x/-r and names, mark the functions exported (as export -f), unexported or read-only instead of printing them; with -x alone list the exported functions',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'if(m){if(g.length===0){let $="",R=Array.from(e.state.functions.keys()).sort();',
      replace:
        'if(m&&(o||f||i)){if(g.length===0)return o&&!i?__jbExportF(e,["-f"]):i&&!o?__jbReadonlyF(e,["-f"]):ee("");' +
        'let has=g.filter(P=>e.state.functions.has(P));has.length&&(o&&__jbExportF(e,["-f",...has]),f&&__jbExportF(e,["-nf",...has]),i&&__jbReadonlyF(e,["-f",...has]));return L("","",has.length===g.length?0:1)}' +
        'if(m){if(g.length===0){let $="",R=Array.from(e.state.functions.keys()).sort();',
    },
  ],
};
