// In `${u:-word}` (and `:=`, `:+`, `:?`) an escaped character of the word is quoted: `${u:-a\ b}` is one word
// `a b`, as `${u:-"a b"}` is. Bash's manual, "Shell Parameter Expansion" (the word undergoes expansion and quote
// removal) and "Word Splitting" (only unquoted results are split). just-bash kept only quoted runs together, so
// `a\ b` split in two.
export default {
  title: 'an escaped blank in a ${u:-word} word does not split it',
  upstream: 'src/interpreter/expansion/word-split.ts smartWordSplit/splitMixedDefault and analysis.ts: count an Escaped part of the operation word as quoted (not splittable)',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'for(let r of n)if(r.type==="DoubleQuoted"||r.type==="SingleQuoted")return!0;return!1}',
      replace: 'for(let r of n)if(r.type==="DoubleQuoted"||r.type==="SingleQuoted"||r.type==="Escaped")return!0;return!1}',
    },
    {
      find: 'if(p&&p.length>0&&p.length>1&&p.some(m=>m.type==="DoubleQuoted"||m.type==="SingleQuoted")',
      replace: 'if(p&&p.length>0&&p.length>1&&p.some(m=>m.type==="DoubleQuoted"||m.type==="SingleQuoted"||m.type==="Escaped")',
    },
    {
      find: 'let d=!(u.type==="DoubleQuoted"||u.type==="SingleQuoted"),p=await s(e,u);',
      replace: 'let d=!(u.type==="DoubleQuoted"||u.type==="SingleQuoted"||u.type==="Escaped"),p=await s(e,u);',
    },
    { find: 'function Bp(e){return e.type==="SingleQuoted"?!0:', replace: 'function Bp(e){return e.type==="SingleQuoted"||e.type==="Escaped"?!0:' },
  ],
};
