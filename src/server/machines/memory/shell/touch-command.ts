/**
 * GNU `touch` over the sprite's filesystem: `-d`/`--date` (GNU's date strings, date-parse.ts), `-t [[CC]YY]MMDDhhmm[.ss]`, `-r FILE`, `-c`, `-a`/`-m` and `-h`. Dates are read in
 * UTC (a sprite's zone). A date it cannot read ends it as GNU's does (`touch: invalid date format ‘…’`, status 1).
 * @see https://www.gnu.org/software/coreutils/manual/html_node/touch-invocation.html, Date-input-formats.html
 * @deviation The sprite keeps one time per file: `-a` alone changes nothing, `-a` with a time to set (`-d`, `-t`, `-r`)
 * fails loudly (exit 2, naming `--exec sandbox`: `stat -c %X` could never show that time).
 * Times keep nanoseconds (`-d @1.123456789`, `-r` copies all nine digits; file-time.ts); `-h` sets a symlink's own.
 */
import { defineCommand, type CustomCommand, type ExecResult, type IFileSystem } from 'just-bash';
import { strerror } from './errno-text.ts';
import { localeQuote } from './gnu-quote.ts';
import { parseDateString } from './date-parse.ts';
import { unsupported } from './gnu-commands.ts';
import { clockTime, fileTime } from './file-time.ts';

/** Epoch ms of a GNU date string relative to `now`, read in UTC (a sprite's zone); null when GNU would refuse it. */
export function parseDate(text: string, now: number): number | null {
  return parseDateString(text, now, 'UTC')?.ms ?? null;
}

/** The file time (with its nanoseconds) of a GNU date string, as `parseDate` reads it; null when GNU would refuse it. */
function parseFileTime(text: string, now: number): Date | null {
  const r = parseDateString(text, now, 'UTC');
  return r ? fileTime(r.ms, r.ns % 1_000_000) : null;
}

/** Epoch ms of a `-t [[CC]YY]MMDDhhmm[.ss]` stamp (UTC), with the year of `now` when it has none; null when invalid. */
export function parseStamp(stamp: string, now: number): number | null {
  const m = /^(\d{2})?(\d{2})?(\d{2})(\d{2})(\d{2})(\d{2})(?:\.(\d{2}))?$/.exec(stamp);
  if (!m) return null;
  const [, a, b, mo, d, h, mi, sec = '0'] = m;
  let year = new Date(now).getUTCFullYear();
  if (a !== undefined && b !== undefined) year = Number(a + b);
  else if (a !== undefined) year = Number(a) >= 69 ? 1900 + Number(a) : 2000 + Number(a);
  const t = Date.UTC(year, Number(mo) - 1, Number(d), Number(h), Number(mi), Number(sec));
  const back = new Date(t);
  return back.getUTCMonth() === Number(mo) - 1 && back.getUTCDate() === Number(d) ? t : null;
}

async function touch(args: string[], fs: IFileSystem, cwd: string, now: number, env: Map<string, string>, orig: (a: string[]) => Promise<ExecResult>): Promise<ExecResult> {
  // GNU touch dies at a date it cannot read (`-dash` is `-d ash`), naming it as gnulib's quote() does.
  const badDate = (v: string): ExecResult => ({ stdout: '', stderr: `touch: invalid date format ${localeQuote(env, v)}\n`, exitCode: 1 });
  let when: Date | null = clockTime(now);
  let create = true;
  let noDeref = false;
  let onlyAccess = false;
  let timeGiven = false;
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const value = (flag: string) => (a.startsWith(`${flag}=`) ? a.slice(flag.length + 1) : a.length > 2 && !a.startsWith('--') ? a.slice(2) : args[++i]);
    if (a === '--') {
      files.push(...args.slice(i + 1));
      break;
    }
    if (/^-(?:[dtr]|-date|-reference)/.test(a)) timeGiven = true;
    if (a === '-d' || a.startsWith('--date') || (a.startsWith('-d') && a.length > 2)) {
      const v = value('--date') ?? '';
      when = parseFileTime(v, now);
      if (when === null) return badDate(v);
    } else if (a === '-t' || (a.startsWith('-t') && a.length > 2)) {
      const v = value('-t') ?? '';
      const ms = parseStamp(v, now);
      when = ms === null ? null : fileTime(ms);
      if (when === null) return badDate(v);
    } else if (a === '-r' || a.startsWith('--reference') || (a.startsWith('-r') && a.length > 2)) {
      const ref = value('--reference') ?? '';
      try {
        when = (await fs.stat(fs.resolvePath(cwd, ref))).mtime;
      } catch (err) {
        return { stdout: '', stderr: `touch: failed to get attributes of '${ref}': ${strerror(err)}\n`, exitCode: 1 };
      }
    } else if (a === '--no-create') create = false;
    else if (a === '--no-dereference') noDeref = true;
    else if (a.startsWith('--time=')) onlyAccess = /^--time=(atime|access|use)$/.test(a);
    else if (a.startsWith('--')) return orig(args);
    else if (/^-[acmhf]+$/.test(a)) {
      if (a.includes('c')) create = false;
      if (a.includes('h')) noDeref = true;
      if (a.includes('a') && !a.includes('m')) onlyAccess = true;
      if (a.includes('m')) onlyAccess = false;
    } else if (a.startsWith('-') && a.length > 1) return orig(args);
    else files.push(a);
  }
  // The sprite keeps one time per file: an access time of its own could never be shown by `stat -c %X`.
  if (onlyAccess && timeGiven) return unsupported('touch', '-a with -d, -t or -r');
  if (files.length === 0) return { stdout: '', stderr: "touch: missing file operand\nTry 'touch --help' for more information.\n", exitCode: 1 };
  let stderr = '';
  for (const name of files) {
    const p = fs.resolvePath(cwd, name);
    try {
      const st = await fs.lstat(p).catch(() => null);
      if (!st) {
        if (!create || noDeref) continue;
        await fs.writeFile(p, new Uint8Array(0));
      }
      if (onlyAccess) continue;
      if (noDeref && st?.isSymbolicLink) await setLinkTime(fs, p, when!);
      else await fs.utimes(p, when!, when!);
    } catch (err) {
      stderr += `touch: cannot touch '${name}': ${strerror(err)}\n`;
    }
  }
  return { stdout: '', stderr, exitCode: stderr ? 1 : 0 };
}

/** Sets the time of the symlink `p` itself, where the filesystem can (bash-fs.ts `lutimes`); else leaves it. */
async function setLinkTime(fs: IFileSystem, p: string, when: Date): Promise<void> {
  const own = fs as IFileSystem & { lutimes?: (path: string, atime: Date, mtime: Date) => Promise<void> };
  if (own.lutimes) await own.lutimes(p, when, when);
}

/** `touch` for just-bash's `customCommands`; `now` (epoch ms) is the injected clock's time. */
export function touchCommand(now: () => number): CustomCommand {
  return defineCommand('touch', (args, ctx) => touch(args, ctx.fs, ctx.cwd, now(), ctx.env, (a) => ctx.origCommand!(a)));
}
