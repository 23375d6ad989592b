// A `${...}` inside an array subscript is a full parameter expansion: `${opts[${arg%%=*}]}`,
// `${a[${i#x}]}` and `${m[${k:-def}]}` use the expanded key (bash(1) "Arrays": the subscript of an associative array
// undergoes parameter expansion; an indexed one is arithmetic, whose `${...}` expand first). just-bash looked the
// braces' text up as a bare variable name, so any operator inside gave an empty key (`${o[]}: bad substitution`).
export default {
  title: 'a ${...} inside an array subscript expands with its operators',
  upstream: 'src/interpreter/expansion/parameter.ts expandSubscriptText: expand `${content}` with the word expander (as arithmetic does) instead of getVariable(content)',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'let c=n.slice(o+2,l-1),u=await ie(e,c);i+=u,o=l',
      replace: 'let c=n.slice(o+2,l-1),u=await us(e,c);i+=u,o=l',
    },
  ],
};
