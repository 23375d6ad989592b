/**
 * GNU `touch` over the sprite's filesystem: `-d`/`--date` (GNU's date strings, date-parse.ts), `-t [[CC]YY]MMDDhhmm[.ss]`, `-r FILE`, `-c`, `-a`/`-m` and `-h`. Dates are read in
 * UTC (a sprite's zone). A date it cannot read ends it as GNU's does (`touch: invalid date format ‘…’`, status 1).
 * @see https://www.gnu.org/software/coreutils/manual/html_node/touch-invocation.html, Date-input-formats.html
 * `-a` sets only the access time and `-m` only the modification time; `-r` takes each from the reference file's own,
 * and a `-d` date given with it counts from each of them (`-r f -d '+1 hour'`).
 * Times keep nanoseconds (`-d @1.123456789`, `-r` copies all nine digits; file-time.ts); `-h` sets a symlink's own.
 */
import { defineCommand, type CustomCommand, type ExecResult, type FsStat, type IFileSystem } from 'just-bash';
import { strerror } from './errno-text.ts';
import { argmatch, argmatchMessage, localeQuote } from './gnu-quote.ts';
import { parseDateString } from './date-parse.ts';
import { accessTime, clockTime, fileTime } from './file-time.ts';

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

/** `--time` values (gnulib argmatch: abbreviations of one meaning are accepted). */
const TIME_WORDS = [['atime', 'access', 'use'], ['mtime', 'modify']] as const;

async function touch(args: string[], fs: IFileSystem, cwd: string, now: number, env: Map<string, string>, orig: (a: string[]) => Promise<ExecResult>): Promise<ExecResult> {
  const TRY = "Try 'touch --help' for more information.\n";
  // GNU touch dies at a date it cannot read (`-dash` is `-d ash`), naming it as gnulib's quote() does.
  const badDate = (v: string): ExecResult => ({ stdout: '', stderr: `touch: invalid date format ${localeQuote(env, v)}\n`, exitCode: 1 });
  // Read as touch.c's getopt loop does: `-d` and `-r` are kept (the last of each wins) and read after the options;
  // `-t` is read at once.
  let stamp: Date | null = null;
  let flexDate: string | null = null;
  let ref: string | null = null;
  let create = true;
  let noDeref = false;
  let onlyAccess = false;
  let onlyModify = false;
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const value = (flag: string) => (a.startsWith(`${flag}=`) ? a.slice(flag.length + 1) : a.length > 2 && !a.startsWith('--') ? a.slice(2) : args[++i]);
    if (a === '--') {
      files.push(...args.slice(i + 1));
      break;
    }
    if (a === '-d' || a.startsWith('--date') || (a.startsWith('-d') && a.length > 2)) flexDate = value('--date') ?? '';
    else if (a === '-t' || (a.startsWith('-t') && a.length > 2)) {
      const v = value('-t') ?? '';
      const ms = parseStamp(v, now);
      if (ms === null) return badDate(v);
      stamp = fileTime(ms);
    } else if (a === '-r' || a.startsWith('--reference') || (a.startsWith('-r') && a.length > 2)) ref = value('--reference') ?? '';
    else if (a === '--no-create') create = false;
    else if (a === '--no-dereference') noDeref = true;
    else if (a.startsWith('--time=')) {
      const word = a.slice('--time='.length);
      const meaning = argmatch(word, TIME_WORDS);
      if (typeof meaning !== 'number') return { stdout: '', stderr: `touch: ${argmatchMessage(env, word, '--time', TIME_WORDS, meaning === 'ambiguous')}\n${TRY}`, exitCode: 1 };
      if (meaning === 0) onlyAccess = true;
      else onlyModify = true;
    } else if (a.startsWith('--')) return orig(args);
    else if (/^-[acmhf]+$/.test(a)) {
      if (a.includes('c')) create = false;
      if (a.includes('h')) noDeref = true;
      if (a.includes('a')) onlyAccess = true;
      if (a.includes('m')) onlyModify = true;
    } else if (a.startsWith('-') && a.length > 1) return orig(args);
    else files.push(a);
  }
  // `-a -m` together set both, as neither does.
  const setAccess = onlyAccess || !onlyModify;
  const setModify = onlyModify || !onlyAccess;
  if (stamp && (ref !== null || flexDate !== null)) return { stdout: '', stderr: `touch: cannot specify times from more than one source\n${TRY}`, exitCode: 1 };
  // The times to set: the reference's own two (a date then counts from each), a date from now, a stamp, or now.
  let atimeTo: Date = stamp ?? clockTime(now);
  let mtimeTo: Date = atimeTo;
  if (ref !== null) {
    let st: FsStat;
    try {
      st = await fs.stat(fs.resolvePath(cwd, ref));
    } catch (err) {
      return { stdout: '', stderr: `touch: failed to get attributes of '${ref}': ${strerror(err)}\n`, exitCode: 1 };
    }
    atimeTo = accessTime(st);
    mtimeTo = st.mtime;
    if (flexDate !== null) {
      const a = setAccess ? parseFileTime(flexDate, atimeTo.getTime()) : atimeTo;
      const m = setModify ? parseFileTime(flexDate, mtimeTo.getTime()) : mtimeTo;
      if (!a || !m) return badDate(flexDate);
      atimeTo = a;
      mtimeTo = m;
    }
  } else if (flexDate !== null) {
    const when = parseFileTime(flexDate, now);
    if (!when) return badDate(flexDate);
    atimeTo = mtimeTo = when;
  }
  if (files.length === 0) return { stdout: '', stderr: `touch: missing file operand\n${TRY}`, exitCode: 1 };
  let stderr = '';
  for (const name of files) {
    const p = fs.resolvePath(cwd, name);
    try {
      const st = await fs.lstat(p).catch(() => null);
      if (!st) {
        if (!create || noDeref) continue;
        await fs.writeFile(p, new Uint8Array(0));
      }
      const link = noDeref && st?.isSymbolicLink === true;
      const cur = link ? await fs.lstat(p) : await fs.stat(p);
      const atime = setAccess ? atimeTo : accessTime(cur);
      const mtime = setModify ? mtimeTo : cur.mtime;
      if (link) await setLinkTime(fs, p, atime, mtime);
      else await fs.utimes(p, atime, mtime);
    } catch (err) {
      stderr += `touch: cannot touch '${name}': ${strerror(err)}\n`;
    }
  }
  return { stdout: '', stderr, exitCode: stderr ? 1 : 0 };
}

/** Sets the times of the symlink `p` itself, where the filesystem can (bash-fs.ts `lutimes`); else leaves it. */
async function setLinkTime(fs: IFileSystem, p: string, atime: Date, mtime: Date): Promise<void> {
  const own = fs as IFileSystem & { lutimes?: (path: string, atime: Date, mtime: Date) => Promise<void> };
  if (own.lutimes) await own.lutimes(p, atime, mtime);
}

/** `touch` for just-bash's `customCommands`; `now` (epoch ms) is the injected clock's time. */
export function touchCommand(now: () => number): CustomCommand {
  return defineCommand('touch', (args, ctx) => touch(args, ctx.fs, ctx.cwd, now(), ctx.env, (a) => ctx.origCommand!(a)));
}
