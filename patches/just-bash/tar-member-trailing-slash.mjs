// A tar member operand ending in `/` names that directory and everything below it, as without the slash:
// `tar -tzf a.tgz src/lib/` lists `src/lib/` and `src/lib/util.ts`, and `tar -xf a.tar src/` extracts the tree (GNU
// tar compares names without their trailing slashes). just-bash matched `src/lib/` only against the directory itself.
export default {
  title: 'tar member operands match without their trailing slash',
  upstream: 'src/commands/tar/tar.ts listArchive and extractArchive: strip trailing slashes from the member operands before matching them against member names',
  file: 'dist/bundle/chunks/chunk-X3TZEFQG.js',
  edits: [
    { find: 'async function er(e,t,r){let n;', replace: 'async function er(e,t,r){r=r.map(q=>q.replace(/(.)\\/+$/,"$1"));let n;' },
    { find: 'async function Qt(e,t,r){let n;', replace: 'async function Qt(e,t,r){r=r.map(q=>q.replace(/(.)\\/+$/,"$1"));let n;' },
  ],
};
