// A command whose stdout is bytes and that also wrote to stderr (`gzip -c a nope | wc -c`, `xz -c a nope 2>/dev/null`)
// failed with `bash: redirection: invalid stdout accounting` (exit 126) where its output met a redirection or a pipe:
// the part of the output already charged to the budget was measured as UTF-8 text, so bytes 0x80–0xff counted
// twice and the charge came out larger than the output. Bytes are now measured as bytes.
export default {
  title: 'redirected bytes output is measured in bytes when its budget charge is carried over',
  upstream: 'src/interpreter/redirections.ts applyRedirections: carry internalOutputAccounting.stdout as the byte length of a bytes result (stdoutKind "bytes" or stdoutEncoding "binary"), not its UTF-8 length',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'let S=(t.internalOutputAccounting?.stdout??0)+(t.internalOutputAccounting?.stderr??0),v=B(g.stdout),',
      replace: 'let S=(t.internalOutputAccounting?.stdout??0)+(t.internalOutputAccounting?.stderr??0),v=g.stdoutKind==="bytes"||g.stdoutKind===void 0&&g.stdoutEncoding==="binary"?g.stdout.length:B(g.stdout),',
    },
  ],
};
