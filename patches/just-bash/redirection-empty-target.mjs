// A redirection's word must expand to exactly one word: an unquoted expansion that leaves none (`> $unset`,
// `< $(true)`) is an ambiguous redirect as much as one that leaves two (`bash: line N: $unset: ambiguous redirect`,
// status 1, the command not run). A quoted empty word (`> "$unset"`) is one word, the empty file name, which no
// file has: `bash: line N: : No such file or directory`. Bash's manual, "Redirections" ("If it expands to more
// than one word, Bash reports an error"; redir.c treats no word the same way). just-bash opened the empty name as
// the current directory (`: Is a directory`, or for input `: No such file or directory` without the ambiguity), and
// named the word by its first parameter only (`$(true)` read `$`).
export default {
  title: 'a redirection word that expands to nothing is ambiguous; a quoted empty one names no file',
  upstream: 'src/interpreter/redirections.ts expandRedirectTarget: an unquoted expansion giving zero fields is "ambiguous redirect"; openOutputTarget/openInputTarget: the empty path is ENOENT',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'if((i||o)&&!r&&!Oe(e.state.env)){let f=ke(e.state.env);if(de(s,f,e.limits.maxArrayElements).length>1)return{error:`bash: $${Xp(n)}: ambiguous redirect\n`}',
      replace: 'if((i||o)&&!r&&(s===""||!Oe(e.state.env))){let f=ke(e.state.env);if(s===""||de(s,f,e.limits.maxArrayElements).length!==1)return{error:`bash: ${we(t)}: ambiguous redirect\n`}',
    },
    {
      find: 'async function Wn(e,t,n,r,s=!0){',
      replace: 'async function Wn(e,t,n,r,s=!0){if(t==="")return{error:L("",`bash: : No such file or directory\n`,1)};',
    },
    {
      find: 'async function yo(e,t,n){',
      replace: 'async function yo(e,t,n){if(t==="")return{error:L("",`bash: : No such file or directory\n`,1)};',
    },
  ],
};
