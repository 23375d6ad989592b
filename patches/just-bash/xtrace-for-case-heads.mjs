// With `set -x` bash traces the head of a `for` loop before each pass (`+ for i in 1 2`, the words as written;
// `for x` as `for x in "$@"`) and of a `case` before its word is expanded (`+ case $x in`), through the compound
// command's own redirections (execute_cmd.c, xtrace_print_for_command_head / xtrace_print_case_command_head). The
// messages of the loop's words' expansions (`for i in $(nope)`) go the same way, before the first pass. just-bash
// traced neither head, and left those messages for the next command to drop.
export default {
  title: 'set -x traces the head of for and case; a for loop\'s word expansion messages are written',
  upstream: 'src/interpreter/control-flow.ts executeFor / executeCase: when xtrace is on, append PS4 + "for NAME in WORDS" (serialized words) to the loop\'s stderr before each iteration and PS4 + "case WORD in" before expanding the case word; append state.expansionStderr after expanding the for words',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: '}e.state.loopDepth++;try{for(let o of i){s++',
      replace:
        '}e.state.expansionStderr&&(n.append("",e.state.expansionStderr),e.state.expansionStderr="");let __jbH=e.state.options.xtrace?`for ${t.variable} in ${t.words===null?\'"$@"\':t.words.map(_jbTraceWord).join(" ")}\n`:"";e.state.loopDepth++;try{for(let o of i){s++',
    },
    {
      // A word as bash prints it in a trace: as written, a word of quoted or literal text holding a control
      // character (a $'…' once parsed, whatever quoting the engine's rewrite gave it) single-quoted, as bash's parser turned it into one (also used by xtrace-array-assignment).
      find: 'async function Am(e,t){let n=new on(e),',
      replace: 'function _jbTraceWord(w){let q=w.parts.every(p=>p.type==="Literal"||p.type==="Escaped"||p.type==="SingleQuoted"),v=q?w.parts.map(p=>p.value).join(""):"";return q&&/[\\x00-\\x1f\\x7f]/.test(v)?`\'${v.replace(/\'/g,"\'\\\\\'\'")}\'`:we(w)}async function Am(e,t){let n=new on(e),',
    },
    {
      find: 'e.state.env.set(t.variable,o);try{for(let a of t.body){',
      replace: 'e.state.env.set(t.variable,o);__jbH&&n.append("",await Ju(e)+__jbH);try{for(let a of t.body){',
    },
    {
      find: 'async function xm(e,t){let n=new on(e),r=0,s=await se(e,t.word),i=!1;',
      replace:
        'async function xm(e,t){let n=new on(e),r=0;e.state.options.xtrace&&n.append("",`${await Ju(e)}case ${_jbTraceWord(t.word)} in\n`);let s=await se(e,t.word),i=!1;e.state.expansionStderr&&(n.append("",e.state.expansionStderr),e.state.expansionStderr="");',
    },
  ],
};
