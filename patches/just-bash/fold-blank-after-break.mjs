// `fold -s` breaks after the last blank that fits (GNU coreutils manual, "fold invocation": "break at spaces"),
// including a blank that starts the continued line: `echo 'hello world' | fold -s -w 5` is `hello`, ` `, `world`.
// just-bash forgot a blank that was the first character after a break, so the next break fell inside the word
// (`hello`, ` worl`, `d`).
export default {
  title: 'fold -s remembers a blank that starts the line after a break',
  upstream: 'src/commands/fold/fold.ts foldLine: after starting a new output line with a blank, record it as the last blank',
  file: 'dist/bundle/chunks/chunk-Y62SXZKJ.js',
  edits: [
    {
      find: 'e=e.slice(o+1)+a,t=t-f-1+d,o=-1,f=0):(l.push(e),e=a,t=d,o=-1,f=0)',
      replace: 'e=e.slice(o+1)+a,t=t-f-1+d,o=-1,f=0,(a===" "||a==="\\t")&&(o=e.length-1,f=t-d)):(l.push(e),e=a,t=d,o=-1,f=0,(a===" "||a==="\\t")&&(o=0,f=0))',
    },
  ],
};
