// jq's `stderr` writes its input as compact JSON, no newline, to stderr (jq-whole-strftime calls this writer; jq-writes-debug-and-halt made the jq I/O object).
export default {
  title: "jq's stderr writes to stderr",
  upstream: "src/commands/jq/ (the command's jq I/O): a writer for stderr/0",
  file: "dist/bundle/chunks/chunk-UL6YJ7FT.js",
  edits: [
    { find: "jqIo:{debug:o=>{JE+=`[\"DEBUG:\",${ee(o,t.limits.maxStringLength,{compact:!0,sortKeys:E})}]\n`}}}", replace: "jqIo:{debug:o=>{JE+=`[\"DEBUG:\",${ee(o,t.limits.maxStringLength,{compact:!0,sortKeys:E})}]\n`},stderr:o=>{JE+=ee(o,t.limits.maxStringLength,{compact:!0,sortKeys:E})}}}" },
  ],
};
