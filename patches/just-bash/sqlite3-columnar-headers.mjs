// The sqlite shell's columnar modes (box, table, markdown) always write the header, centred in its column
// (shell.c: `(w-n)/2` spaces before, the rest after), pad every cell to its column's width (markdown too, whose
// rule is dashes as wide as the column), and write nothing at all for a result without rows. just-bash left-aligned
// the headers, wrote markdown unpadded with `---` rules, and drew an empty table for no rows.
export default {
  title: 'sqlite3 box/table/markdown: headers centred, markdown padded, nothing for no rows',
  upstream: 'src/commands/sqlite3/formatters.ts (formatTable, formatBox, formatMarkdown: centre the header, pad markdown to column widths, return "" for no rows)',
  file: 'dist/bundle/chunks/chunk-N3FZSEG7.js',
  edits: [
    {
      find: 'function se(e,t,r){if(e.length===0)return"";',
      replace: 'function spzCentre(a,w){let p=Math.max(0,w-a.length);return" ".repeat(p>>1)+a+" ".repeat(p-(p>>1))}function se(e,t,r){if(e.length===0||t.length===0)return"";r={...r,header:!0};',
    },
    {
      find: 'r.header&&(s.push(`| ${e.map((a,i)=>a.padEnd(n[i])).join(" | ")} |`),s.push(o));',
      replace: 'r.header&&(s.push(`| ${e.map((a,i)=>spzCentre(a,n[i])).join(" | ")} |`),s.push(o));',
    },
    { find: 'function ae(e,t,r){if(e.length===0)return"";', replace: 'function ae(e,t,r){if(e.length===0||t.length===0)return"";' },
    { find: 's.push(`\\u2502 ${e.map((o,a)=>o.padEnd(n[a])).join(" \\u2502 ")} \\u2502`)', replace: 's.push(`\\u2502 ${e.map((o,a)=>spzCentre(o,n[a])).join(" \\u2502 ")} \\u2502`)' },
    {
      find: 'function oe(e,t,r){if(e.length===0)return"";let n=[];r.header&&(n.push(`| ${e.join(" | ")} |`),n.push(`|${e.map(()=>"---").join("|")}|`));for(let s of t)n.push(`| ${s.map(o=>m(o,r.nullValue)).join(" | ")} |`);',
      replace: 'function oe(e,t,r){if(e.length===0||t.length===0)return"";let n=[],w=e.map((o,a)=>Math.max(o.length,...t.map(s=>m(s[a],r.nullValue).length)));n.push(`| ${e.map((o,a)=>spzCentre(o,w[a])).join(" | ")} |`),n.push(`|${w.map(o=>"-".repeat(o+2)).join("|")}|`);for(let s of t)n.push(`| ${s.map((o,a)=>m(o,r.nullValue).padEnd(w[a])).join(" | ")} |`);',
    },
  ],
};
