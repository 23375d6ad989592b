// Statements that were on one line are written back on one line (`a; b`, `a & b`), as in the script they came
// from: just-bash's serializer put each statement of a list on a line of its own, so a script written back out
// (spritzer writes its rewritten scripts back to text before it runs them) had other line numbers: `$LINENO`, the
// `line N` of messages, and bash's rule that an expansion error discards the rest of its line, all saw the new lines.
export default {
  title: 'the serializer writes statements that shared a line on one line',
  upstream: 'src/transform/serialize.ts serializeScript (statement lists): join two statements whose first commands carry the same line with "; " (" " after a background one), not a newline',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'function gn(e){return e.statements.map(wl).join(`\n`)}',
      replace:
        'function gn(e){let L=s=>s?.pipelines?.[0]?.commands?.[0]?.line;return e.statements.map((s,i)=>{let p=e.statements[i-1];return(i===0?"":typeof L(s)=="number"&&L(s)===L(p)?p.background?" ":"; ":`\n`)+wl(s)}).join("")}',
    },
  ],
};
