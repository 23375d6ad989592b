// GNU mv refuses to move a directory into itself with "cannot move 'SRC' to a subdirectory of itself, 'DEST'",
// naming DEST as the user wrote it (with the source's last component appended when DEST is a directory). just-bash
// said "into itself" and named the absolute path it had resolved.
export default {
  title: "mv's message for a directory moved into itself is GNU's, with the destination as written",
  upstream: "src/commands/mv/mv.ts: the wording \"to a subdirectory of itself\", and the destination built from the target operand",
  file: 'dist/bundle/chunks/chunk-WHHRIZS3.js',
  edits: [
    {
      find: "i+=`mv: cannot move '${t}' into itself, '${n}'\n`",
      replace: "i+=`mv: cannot move '${t}' to a subdirectory of itself, '${m?`${f.replace(/\\/+$/,\"\")}/${t.replace(/\\/+$/,\"\").split(\"/\").pop()}`:f}'\n`",
    },
  ],
};
