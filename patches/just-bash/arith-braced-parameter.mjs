// A `${...}` inside arithmetic is an ordinary parameter expansion: `$(( ${count[$w]:-0} + 1 ))`,
// `$(( ${#arr[0]} ))` and `$(( ${x:+7} ))` expand exactly as they would in a word before the result is evaluated
// (bash's manual, "Shell Arithmetic": "shell variables ... parameter expansion ... are performed"). just-bash read
// the braces with a small parser of its own that knew only `name`, `#name` and `name:-word` on plain names, so any
// subscript, length of an element or other operator gave 0.
export default {
  title: 'a ${...} inside arithmetic expands as any parameter expansion',
  upstream: 'src/interpreter/arithmetic.ts expandBracedContent: expand `${content}` with the word expander (parseWordFromString + expandWord) instead of the hand-written subset',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'async function us(e,t){if(t.startsWith("#")){',
      replace: 'async function us(e,t){return await se(e,new Q().parseWordFromString("${"+t+"}",!0,!1));if(t.startsWith("#")){',
    },
  ],
};
