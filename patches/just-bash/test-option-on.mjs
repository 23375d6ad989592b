// `test -o OPTNAME` / `[[ -o OPTNAME ]]` is true when the shell option named as `set -o` names it is on (bash's
// manual, "Bash Conditional Expressions"; test.c uses minus_o_option_value over the whole `set -o` table). Only
// long names count: `[ -o e ]` is false as in bash. just-bash knew four options (and the letters e, u, x), so
// `set -o noglob; [ -o noglob ]` was false. Here every option `set -o` lists is looked up, with the same defaults.
export default {
  title: 'test -o / [[ -o ]] know every set -o option',
  upstream: 'src/interpreter/conditionals.ts evaluateShellOption: look the name up in the set -o option table (the options listed by set -o, with braceexpand, hashall and interactive-comments on by default)',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'function Ji(e,t){let r=new Map([["errexit",()=>e.state.options.errexit===!0],["nounset",()=>e.state.options.nounset===!0],["pipefail",()=>e.state.options.pipefail===!0],["xtrace",()=>e.state.options.xtrace===!0],["e",()=>e.state.options.errexit===!0],["u",()=>e.state.options.nounset===!0],["x",()=>e.state.options.xtrace===!0]]).get(t);return r?r():!1}',
      replace: 'function Ji(e,t){return ju.includes(t)?e.state.options[t]===!0:qu.includes(t)?!!(e.state.options[t]??["braceexpand","hashall","interactive-comments"].includes(t)):!1}',
    },
  ],
};
