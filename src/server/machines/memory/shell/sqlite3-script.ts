/**
 * What a `sqlite3` invocation asks for, as the sqlite shell reads it: its SQL and its dot-commands, in order.
 * The shell takes every argument after the database as one command (an SQL text, or a dot-command when it starts
 * with `.`); without one it reads stdin, where a line starting with `.` while no SQL statement is pending is a
 * dot-command. A dot-command ends the SQL before it.
 * @see https://sqlite.org/cli.html ("Special commands to sqlite3", "Command-line Options"); sqlite's
 *   src/shell.c.in main(), process_input(), do_meta_command()
 */

/** One command: SQL text, or a dot-command split into its words (`['.mode', 'csv']`). */
export type Sqlite3Command = { sql: string } | { dot: string[] };

/**
 * A dot-command's words: separated by blanks, a word in '…' taken as is, in "…" with its backslash escapes
 * resolved, a bare word too (shell.c's argument parsing and resolve_backslashes).
 */
export function dotWords(line: string): string[] {
  const words: string[] = [];
  const re = /\s*(?:'([^']*)'?|"((?:[^"\\]|\\.)*)"?|(\S+))/gy;
  let m: RegExpExecArray | null;
  while ((m = re.exec(line)) !== null && m[0].length > 0) {
    if (m[1] !== undefined) words.push(m[1]);
    else if (m[2] !== undefined) words.push(unescape(m[2]));
    else if (m[3] !== undefined) words.push(m[3]);
  }
  return words;
}

/** C-style escapes as the sqlite shell resolves them in a dot-command's argument (`\t`, `\n`, `\r`, `\\`, `\"`, `\'`). */
export function unescape(text: string): string {
  const named: Record<string, string> = { t: '\t', n: '\n', r: '\r', '\\': '\\', '"': '"', "'": "'", a: '\x07', b: '\b', f: '\f', v: '\v' };
  return text.replace(/\\(.)/g, (all, c: string) => named[c] ?? all);
}

/** The commands of a shell's arguments after the database: each one whole. */
export function argumentCommands(args: readonly string[]): Sqlite3Command[] {
  return args.map((a) => (a.startsWith('.') ? { dot: dotWords(a) } : { sql: a }));
}

/**
 * The commands of a script read from stdin: SQL lines gathered until a dot-command line (one whose first character
 * is `.`, met while the gathered SQL is blank or ends its statement with `;`, a `--` comment after it allowed).
 * Blank and comment-only lines between statements are skipped, as shell.c's process_input() does.
 */
export function scriptCommands(text: string): Sqlite3Command[] {
  const out: Sqlite3Command[] = [];
  let sql = '';
  const flush = () => {
    if (sql.trim() !== '') out.push({ sql });
    sql = '';
  };
  const complete = () => sql.trim() === '' || /;[ \t]*(--[^\n]*)?\s*$/.test(sql);
  for (const line of text.split('\n')) {
    if (line.startsWith('.') && complete()) {
      flush();
      out.push({ dot: dotWords(line) });
    } else if (!complete() || !/^\s*(--.*)?$/.test(line)) {
      sql += `${line}\n`;
    }
  }
  flush();
  return out;
}

/** Whether any of `commands` is a dot-command. */
export const hasDotCommand = (commands: readonly Sqlite3Command[]): boolean => commands.some((c) => 'dot' in c);

/**
 * The columns `.tables` lays its names out in: as many `%-Ws` columns (W the longest name) as fit 80 characters
 * with two blanks between, filled down then across, each line ending in its last padded name (shell.c).
 */
export function tableColumns(names: readonly string[]): string {
  if (names.length === 0) return '';
  const width = Math.max(...names.map((n) => n.length));
  const columns = Math.max(1, Math.floor(80 / (width + 2)));
  const rows = Math.ceil(names.length / columns);
  let out = '';
  for (let i = 0; i < rows; i++) {
    for (let j = i; j < names.length; j += rows) out += `${j < rows ? '' : '  '}${names[j]!.padEnd(width)}`;
    out += '\n';
  }
  return out;
}

/** CSV text whose record ends are `\r\n` (the shell's `.mode csv`), newlines inside quoted fields left alone. */
export function crlfRecords(csv: string): string {
  let out = '';
  let quoted = false;
  for (const c of csv) {
    if (c === '"') quoted = !quoted;
    out += c === '\n' && !quoted ? '\r\n' : c;
  }
  return out;
}
