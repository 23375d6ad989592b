// bash's manual, "Shell Parameter Expansion": `${parameter/pattern/string}` — "If pattern begins with `#`, it must
// match at the beginning … If pattern begins with `%`, it must match at the end"; with `//` every match is replaced.
// The anchors belong to the one-slash form only: after `//` a `#` or `%` is the first character of the pattern
// (`${msg//%/%%}` doubles each `%` for printf, `${s//#}` deletes every `#`). just-bash read them as anchors after
// `//` too, so those expansions changed nothing or the wrong part.
export default {
  title: '${v//#…} and ${v//%…}: after // the # or % is part of the pattern, not an anchor',
  upstream: 'src/parser/expansion-parser.ts parseParameterOperation ("/" branch): look for the # or % anchor only when the operator is a single /',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'if(o==="/"){let l=a==="/";i+=l?2:1;let c=null;t[i]==="#"?(c="start",i++):t[i]==="%"&&(c="end",i++);',
      replace: 'if(o==="/"){let l=a==="/";i+=l?2:1;let c=null;!l&&(t[i]==="#"?(c="start",i++):t[i]==="%"&&(c="end",i++));',
    },
  ],
};
