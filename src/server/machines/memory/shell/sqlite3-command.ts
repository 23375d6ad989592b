/**
 * `sqlite3` of the shell engine: just-bash's sqlite shell (WebAssembly) taking its options as the sqlite shell does.
 * The sqlite shell reads `--opt` as `-opt` (shell.c: a second dash is skipped), so scripts write `sqlite3 --version`,
 * `--json`, `--header --csv` as often as the one-dash forms; just-bash knew only the one-dash ones. `-version`
 * prints what shell.c prints: the library's version, its source id and the pointer width of the machine (x86_64:
 * 64-bit). Several commands after the database run in order (each SQL argument, each dot-command); without a
 * database the shell uses an in-memory one; the common dot-commands (`.tables`, `.schema`, `.headers`, `.mode`,
 * `.separator`, `.nullvalue`, `.quit`) work as arguments and on stdin, the others are refused naming `--exec sandbox`.
 * It owns the wrapper; the shell is just-bash's (`ctx.origCommand`), which runs one SQL text per call.
 * @see https://sqlite.org/cli.html ("Command-line Options", "Special commands"), sqlite's src/shell.c.in main()
 */
import { randomBytes } from 'node:crypto';
import { decodeBytesToUtf8, defineCommand, type CommandContext, type CustomCommand, type ExecResult } from 'just-bash';
import { argumentCommands, crlfRecords, hasDotCommand, scriptCommands, tableColumns, unescape, type Sqlite3Command } from './sqlite3-script.ts';

/**
 * The arguments as just-bash's sqlite3 reads them: each `--opt` before a bare `--` becomes `-opt` (operands, and
 * everything after `--`, stay as they are).
 */
export function oneDashOptions(args: readonly string[]): string[] {
  const out: string[] = [];
  let options = true;
  for (const a of args) {
    if (options && a === '--') options = false;
    out.push(options && /^--[^-]/.test(a) ? a.slice(1) : a);
  }
  return out;
}

/** Options just-bash's sqlite3 reads with a value after them. */
const VALUED = new Set(['-separator', '-newline', '-nullvalue', '-cmd']);

/**
 * The shell's arguments (one-dash options) split: its options (but `-cmd`), the `-cmd` texts, the database and the
 * commands after it. Options may come anywhere before `--`; everything after it is an operand.
 */
export function splitArguments(given: readonly string[]): { options: string[]; cmd: string[]; database: string | null; commands: string[] } {
  const out = { options: [] as string[], cmd: [] as string[], database: null as string | null, commands: [] as string[] };
  let operands = false;
  for (let i = 0; i < given.length; i++) {
    const a = given[i]!;
    if (!operands && a === '--') operands = true;
    else if (!operands && a === '-cmd' && i + 1 < given.length) out.cmd.push(given[++i]!);
    else if (!operands && VALUED.has(a) && i + 1 < given.length) out.options.push(a, given[++i]!);
    else if (!operands && a.startsWith('-')) out.options.push(a);
    else if (out.database === null) out.database = a;
    else out.commands.push(a);
  }
  return out;
}

const quoteSql = (text: string) => `'${text.replace(/'/g, "''")}'`;

/** A refusal: a dot-command the shell engine does not carry out. */
const refused = (name: string): ExecResult => ({ stdout: '', stderr: `sqlite3: ${name} is not available in the shell engine; run spritzer with --exec sandbox\n`, exitCode: 1 });

/** One step of a run: SQL under the output options then in force, or a dot-command's query or its message. */
type Step = { sql: string; options: string[]; crlf: boolean } | { tables: string } | { schema: string | null } | { result: ExecResult; stop?: boolean } | { quit: number };

/** The output options each `.mode` gives (shell.c: `.mode list` and `.mode tabs` also set the column separator). */
const MODES: Record<string, string[]> = {
  list: ['-list', '-separator', '|', '-newline', '\n'],
  csv: ['-csv'],
  tabs: ['-tabs'],
  ...Object.fromEntries(['line', 'json', 'column', 'table', 'markdown', 'box', 'html', 'quote', 'ascii'].map((m) => [m, [`-${m}`]])),
};

/** A dot-command's boolean as shell.c's booleanValue() reads it: a number (non-zero), on/yes, off/no; else null. */
function booleanValue(word: string): boolean | null {
  if (/^-?\d+$/.test(word)) return Number(word) !== 0;
  if (/^(on|yes)$/i.test(word)) return true;
  return /^(off|no)$/i.test(word) ? false : null;
}

/** The steps of `commands`, the dot-commands' settings folded into the SQL steps after them. */
function plan(commands: readonly Sqlite3Command[], options: readonly string[], joiner: string): Step[] {
  const steps: Step[] = [];
  let current = [...options];
  let crlf = false;
  for (const c of commands) {
    if ('sql' in c) {
      const last = steps.at(-1);
      if (last && 'sql' in last && last.options === current) last.sql += joiner + c.sql;
      else steps.push({ sql: c.sql, options: current, crlf });
      continue;
    }
    const [name = '.', ...words] = c.dot;
    const set = (more: string[]) => void (current = [...current, ...more]);
    if (name === '.tables' && words.length <= 1) steps.push({ tables: words[0] ?? '%' });
    else if (name === '.schema' && words.length <= 1) steps.push({ schema: words[0] ?? null });
    else if ((name === '.headers' || name === '.header') && words.length === 1) {
      const on = booleanValue(words[0]!);
      if (on === null) steps.push({ result: { stdout: '', stderr: `ERROR: Not a boolean value: "${words[0]}". Assuming "no".\n`, exitCode: 0 } });
      set([on ? '-header' : '-noheader']);
    } else if (name === '.mode' && words.length === 1 && MODES[words[0]!]) {
      set(MODES[words[0]!]!);
      crlf = words[0] === 'csv';
    } else if (name === '.separator' && (words.length === 1 || words.length === 2)) {
      set(['-separator', unescape(words[0]!), ...(words.length === 2 ? ['-newline', unescape(words[1]!)] : [])]);
    } else if (name === '.nullvalue' && words.length === 1) set(['-nullvalue', words[0]!]);
    else if ((name === '.quit' || name === '.exit') && words.length <= 1) steps.push({ quit: name === '.exit' ? Number(words[0] ?? 0) || 0 : 0 });
    else steps.push({ result: refused(c.dot.join(' ')), stop: true });
  }
  return steps;
}

/**
 * Runs `commands` against `database` (null: an in-memory one), one just-bash run per SQL step. Commands given as
 * arguments stop at the first error (shell.c main()); a script read from stdin goes on and exits 1 at the end, but
 * for a refused dot-command.
 * @deviation An in-memory database that several runs share lives in a hidden file under /tmp while they run.
 */
async function runCommands(commands: readonly Sqlite3Command[], options: readonly string[], database: string | null, fromArguments: boolean, ctx: CommandContext): Promise<ExecResult> {
  const run = ctx.origCommand!;
  const steps = plan(commands, options, fromArguments ? '\n;\n' : '');
  const runs = steps.filter((s) => 'sql' in s || 'tables' in s || 'schema' in s).length;
  const memory = database === null || database === ':memory:';
  const db = memory && runs > 1 ? `/tmp/.sqlite3-memory-${randomBytes(6).toString('hex')}` : (database ?? ':memory:');
  const out: ExecResult = { stdout: '', stderr: '', exitCode: 0 };
  try {
    for (const step of steps) {
      if ('quit' in step) return { ...out, exitCode: out.exitCode || step.quit };
      let r: ExecResult;
      if ('result' in step) r = step.result;
      else if ('tables' in step) {
        r = await run(['-list', '-noheader', db, `SELECT name FROM sqlite_master WHERE type IN ('table','view') AND name NOT LIKE 'sqlite_%' AND name LIKE ${quoteSql(step.tables)} ORDER BY 1`]);
        r = { ...r, stdout: tableColumns(r.stdout.split('\n').slice(0, -1)) };
      } else if ('schema' in step) {
        const glob = step.schema !== null && /[*?[]/.test(step.schema);
        const where = step.schema === null ? '' : ` AND lower(tbl_name) ${glob ? 'GLOB' : 'LIKE'} ${quoteSql(step.schema)}`;
        r = await run(['-list', '-noheader', db, `SELECT sql || ';' FROM sqlite_master WHERE type != 'meta' AND sql IS NOT NULL${where} ORDER BY rowid`]);
      } else {
        r = await run([...step.options, ...(fromArguments ? ['-bail'] : []), db, step.sql]);
        if (step.crlf) r = { ...r, stdout: crlfRecords(r.stdout) };
      }
      out.stdout += r.stdout;
      out.stderr += r.stderr;
      if (r.exitCode !== 0) {
        out.exitCode = r.exitCode;
        // A refusal ends a script too: what follows may depend on what was not done.
        if (fromArguments || ('stop' in step && step.stop)) break;
      }
    }
    return out;
  } finally {
    if (db !== database && db !== ':memory:') await ctx.fs.rm(db, { force: true }).catch(() => undefined);
  }
}

async function sqlite3(args: string[], ctx: CommandContext): Promise<ExecResult> {
  const run = ctx.origCommand!;
  const given = oneDashOptions(args);
  if (given.includes('-version') && given.indexOf('-version') < (given.indexOf('--') + 1 || Infinity)) {
    return run([':memory:', "select sqlite_version() || ' ' || sqlite_source_id() || ' (64-bit)'"]);
  }
  if (given.includes('-help') || given.includes('-h')) return run(given);
  const { options, cmd, database, commands: operands } = splitArguments(given);
  const fromArguments = operands.length > 0;
  const commands = [...argumentCommands(cmd), ...(fromArguments ? argumentCommands(operands) : scriptCommands(decodeBytesToUtf8(ctx.stdin)))];
  if (!(await directoryOf(database, ctx))) return { stdout: '', stderr: `Error: unable to open database "${database}": unable to open database file\n`, exitCode: 1 };
  // One SQL text against a named database is just-bash's own case (its messages for a bad option or a bad file too).
  const result = database !== null && !hasDotCommand(commands) && cmd.length === 0 && operands.length <= 1 ? await run(given) : await runCommands(commands, options, database, fromArguments, ctx);
  await createOpened(database, options, ctx);
  return result;
}

/**
 * Leaves the empty file sqlite makes when it opens a database file that does not exist (it creates it on opening,
 * whatever the commands: `sqlite3 new.db .tables` leaves a 0-byte `new.db`); just-bash writes one only for changes.
 * Not for `:memory:`, a temporary (`''`) or URI name, `-readonly`, or a file whose directory is missing.
 */
async function createOpened(database: string | null, options: readonly string[], ctx: CommandContext): Promise<void> {
  if (!isFileName(database) || options.includes('-readonly')) return;
  const path = ctx.fs.resolvePath(ctx.cwd, database);
  if (!(await ctx.fs.exists(path)) && (await directoryOf(database, ctx))) await ctx.fs.writeFile(path, '').catch(() => undefined);
}

/** Whether `database` names a file (not `:memory:`, a temporary `''` database or a `file:` URI). */
const isFileName = (database: string | null): database is string => database !== null && database !== '' && database !== ':memory:' && !database.startsWith('file:');

/** Whether a database file could be opened where it is named: its directory exists (true for a non-file name). */
async function directoryOf(database: string | null, ctx: CommandContext): Promise<boolean> {
  if (!isFileName(database)) return true;
  const path = ctx.fs.resolvePath(ctx.cwd, database);
  const parent = path.slice(0, path.lastIndexOf('/')) || '/';
  return ctx.fs.stat(parent).then((st) => st.isDirectory, () => false);
}

/** `sqlite3`, over just-bash's own. */
export function sqlite3Command(): CustomCommand {
  return defineCommand('sqlite3', sqlite3);
}
