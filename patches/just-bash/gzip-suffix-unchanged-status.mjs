// `gzip FILE.gz` (a name that already has the suffix) leaves the file alone with a warning and exits 0, as GNU gzip
// 1.12 does (measured: `gzip f.gz; echo $?` prints the warning and 0; `-q` only silences it). just-bash exited 1, so
// `gzip *` over a directory holding a compressed file failed a script under `set -e`.
const FIND = 'if(t.endsWith(s))return o.quiet?{stdout:"",stderr:"",exitCode:1}:{stdout:"",stderr:`${r}: ${t} already has ${s} suffix -- unchanged\n`,exitCode:1}';
export default {
  title: 'gzip of a name that already has the suffix warns and exits 0',
  upstream: 'src/commands/gzip/gzip.ts: the "already has suffix -- unchanged" case returns exitCode 0',
  file: 'dist/bundle/chunks/chunk-5ELNHAAJ.js',
  edits: [{ find: FIND, replace: FIND.replace(/exitCode:1/g, 'exitCode:0') }],
};
