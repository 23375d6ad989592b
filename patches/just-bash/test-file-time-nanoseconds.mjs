// `test`'s `-nt` and `-ot` compare modification times to the nanosecond, as bash's test.c compares the stat's
// timespecs: a file whose time is 1 ns later is newer. just-bash compared the `Date`s, milliseconds only; the shell
// engine's file times carry the nanoseconds past the millisecond as the `Date`'s `subMsNs`
// (src/server/machines/memory/shell/file-time.ts), which a plain `Date` lacks (0).
const cmp = '(+o.mtime-+a.mtime||(o.mtime.subMsNs??0)-(a.mtime.subMsNs??0))';
export default {
  title: 'test -nt / -ot compare file times to the nanosecond',
  upstream: 'src/interpreter/builtins/test.ts (-nt, -ot): compare mtime with its sub-millisecond nanoseconds when the filesystem gives them',
  file: 'dist/bundle/index.js',
  edits: [
    { find: 'o!==null&&(a===null||o.mtime>a.mtime)', replace: `o!==null&&(a===null||${cmp}>0)` },
    { find: 'a!==null&&(o===null||o.mtime<a.mtime)', replace: `a!==null&&(o===null||${cmp}<0)` },
  ],
};
