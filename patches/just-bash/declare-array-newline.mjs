// A blank or newline inside one word of `declare -A m=([k]=$'a\nb')` (or `local -a x=($'l1\tl2')`) stays in its
// element: the declare builtin gets the words back as text and reads them again, where an unquoted blank separates
// elements, so the text quotes it (`'\n'`); within one word it can only have come from quoting (bash(1) "QUOTING",
// ANSI-C quoting). just-bash wrote it bare, cutting the value at the newline (`a`), the rest another element.
export default {
  title: 'declare NAME=( …$\'a\\nb\'… ) keeps a quoted newline or blank inside its value',
  upstream: 'src/parser/command-parser.ts wordToAssignmentText: single-quote each blank or newline of a Literal part (it came from quoting)',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'function hi(e,t){let n="";for(let r of t.parts)switch(r.type){case"Literal":n+=r.value;break;',
      replace: 'function hi(e,t){let n="";for(let r of t.parts)switch(r.type){case"Literal":n+=r.value.replace(/\\s/g,"\'$&\'");break;',
    },
  ],
};
