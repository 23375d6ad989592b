// The sqlite shell's line mode writes its row separator (a newline) before every record but the first, so records
// are parted by a blank line (shell.c shell_callback, MODE_Line: `if( p->cnt++>0 ) utf8_printf(p->out, "%s",
// p->rowSeparator)`); just-bash ran the records together.
export default {
  title: 'sqlite3 line mode: a blank line between records',
  upstream: 'src/commands/sqlite3/formatters.ts (formatLine: a blank line before each record after the first)',
  file: 'dist/bundle/chunks/chunk-N3FZSEG7.js',
  edits: [
    {
      find: 'for(let o of t)for(let a=0;a<e.length;a++){let i=e[a].padStart(n);',
      replace: 'for(let o of t){s.length&&s.push("");for(let a=0;a<e.length;a++){let i=e[a].padStart(n);',
    },
    {
      find: 's.push(`${i} = ${m(o[a],r.nullValue)}`)}return',
      replace: 's.push(`${i} = ${m(o[a],r.nullValue)}`)}}return',
    },
  ],
};
