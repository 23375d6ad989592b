// Output to a closed stdout (`cmd >&-`) fails with the writer's own words (patch closed-output-write-error made it
// fail): a builtin's message is the shell's, placed as its other messages are (`bash: line 1: echo: write error: Bad
// file descriptor`, `t.sh: line 1: …` in a script file); a program says it itself, as GNU's close_stdout does
// (`ls: write error: Bad file descriptor`, status 2 for ls, sort, grep, diff and cmp, whose failure status is 2;
// cat: `cat: standard output: Bad file descriptor`). just-bash worded every one as the shell's, without its line.
const words =
  'function __jbClosedOut(e,o,a){let b="Bad file descriptor\\n";if(a)return[`${o}: write error: ${b}`,1];' +
  'if(o==="bash"||bo.includes(o))return[__jbPlace(e,`bash: ${o}: write error: ${b}`),1];if(o==="cat")return[`cat: standard output: ${b}`,1];' +
  'return[`${o}: write error: ${b}`,["ls","dir","vdir","sort","grep","egrep","fgrep","diff","cmp"].includes(o)?2:1]}';
export default {
  title: 'a write error on a closed stdout is worded by the writer: the shell for a builtin (placed), the program for a program',
  upstream: 'src/interpreter/redirections.ts applyRedirections (invalid-output stdout): word the error as the builtin or the program would, with the shell\'s line for a builtin',
  file: 'dist/bundle/index.js',
  edits: [
    { find: 'async function rn(e,t,n,r,', replace: `${words}async function rn(e,t,n,r,` },
    {
      find: 'h.kind==="invalid-output"&&S!==""&&(S="",v+=`${a?"":"bash: "}${o}: write error: Bad file descriptor\n`,u=1)',
      replace: 'h.kind==="invalid-output"&&S!==""&&(S="",[S,u]=__jbClosedOut(e,o,a),v+=S,S="")',
    },
  ],
};
