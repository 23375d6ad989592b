// A directory operand written with a trailing slash (`tar czf a.tgz src/`, as completion types it) stores its
// members as `src/lib/`, `src/main.py`: GNU tar joins each child to the operand without doubling the slash.
// just-bash appended `/child` to the operand as typed, storing `src//lib/` and `src//main.py`.
export default {
  title: 'tar members under a directory operand with a trailing slash have a single slash',
  upstream: 'src/commands/tar/tar.ts collectFiles: join a child name to the directory path with its trailing slashes removed',
  file: 'dist/bundle/chunks/chunk-X3TZEFQG.js',
  edits: [{ find: 'f.map(h=>ae(e,t,r?`${r}/${h}`:h,n))', replace: 'f.map(h=>ae(e,t,r?`${r.replace(/\\/+$/,"")}/${h}`:h,n))' }],
};
