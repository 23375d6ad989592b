/**
 * `sqlite3` of the shell engine: just-bash's sqlite shell (WebAssembly) taking its options as the sqlite shell does.
 * The sqlite shell reads `--opt` as `-opt` (shell.c: a second dash is skipped), so scripts write `sqlite3 --version`,
 * `--json`, `--header --csv` as often as the one-dash forms; just-bash knew only the one-dash ones. `-version`
 * prints what shell.c prints: the library's version, its source id and the pointer width of the machine (x86_64:
 * 64-bit). It owns the wrapper; the shell is just-bash's (`ctx.origCommand`).
 * @see https://sqlite.org/cli.html ("Command-line Options"), sqlite's src/shell.c.in main()
 */
import { defineCommand, type CommandContext, type CustomCommand, type ExecResult } from 'just-bash';

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

async function sqlite3(args: string[], ctx: CommandContext): Promise<ExecResult> {
  const run = ctx.origCommand!;
  const given = oneDashOptions(args);
  if (given.includes('-version') && given.indexOf('-version') < (given.indexOf('--') + 1 || Infinity)) {
    return run([':memory:', "select sqlite_version() || ' ' || sqlite_source_id() || ' (64-bit)'"]);
  }
  return run(given);
}

/** `sqlite3`, over just-bash's own. */
export function sqlite3Command(): CustomCommand {
  return defineCommand('sqlite3', sqlite3);
}
