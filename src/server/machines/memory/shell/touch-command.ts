/**
 * GNU `touch` over the sprite's filesystem: `-d`/`--date` (`@SECONDS`, ISO dates and times, `now`, `yesterday`,
 * `N units ago`, `+N units`), `-t [[CC]YY]MMDDhhmm[.ss]`, `-r FILE`, `-c`, `-a`/`-m` and `-h`. Dates are read in
 * UTC (a sprite's zone). A date it cannot read goes to just-bash's `touch`, which says so.
 * @see https://www.gnu.org/software/coreutils/manual/html_node/touch-invocation.html, Date-input-formats.html
 * @deviation The sprite keeps one time per file: `-a` alone changes nothing, and `-h` leaves a symlink's own time.
 */
import { defineCommand, type CustomCommand, type ExecResult, type IFileSystem } from 'just-bash';
import { strerror } from './errno-text.ts';

const UNITS: Record<string, number> = { second: 1e3, sec: 1e3, minute: 60e3, min: 60e3, hour: 3600e3, day: 86400e3, week: 7 * 86400e3, fortnight: 14 * 86400e3 };

/** Epoch ms of a GNU date string relative to `now`; null when it is not one of the forms this reads. */
export function parseDate(text: string, now: number): number | null {
  let s = text.trim().toLowerCase();
  if (/^@-?\d+(\.\d+)?$/.test(s)) return Math.round(Number(s.slice(1)) * 1000);
  let t = now;
  const day = (ms: number) => ms - (ms % 86400e3);
  const abs = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ t](\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?\s*(z|utc|[+-]\d{2}:?\d{2})?/.exec(s);
  if (abs) {
    const [, y, mo, d, h = '0', mi = '0', sec = '0', frac = '0', zone] = abs;
    t = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(sec), Math.round(Number(`0.${frac}`) * 1000));
    if (zone && zone !== 'z' && zone !== 'utc') {
      const m = /([+-])(\d{2}):?(\d{2})/.exec(zone)!;
      t -= (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) * 60e3;
    }
    s = s.slice(abs[0].length).trim();
  }
  while (s) {
    let m: RegExpExecArray | null;
    if ((m = /^(now|today)\b/.exec(s))) t = m[1] === 'today' && !abs ? t : t;
    else if ((m = /^yesterday\b/.exec(s))) t -= 86400e3;
    else if ((m = /^tomorrow\b/.exec(s))) t += 86400e3;
    else if ((m = /^midnight\b/.exec(s))) t = day(t);
    else if ((m = /^([+-]?\s*\d+)?\s*(second|sec|minute|min|hour|day|week|fortnight|month|year)s?\b(\s+ago\b)?/.exec(s))) {
      const n = (m[1] === undefined ? 1 : Number(m[1].replace(/\s+/g, ''))) * (m[3] ? -1 : 1);
      const d = new Date(t);
      if (m[2] === 'month') t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds());
      else if (m[2] === 'year') t = Date.UTC(d.getUTCFullYear() + n, d.getUTCMonth(), d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds());
      else t += n * UNITS[m[2]!]!;
    } else return null;
    s = s.slice(m[0].length).trim();
  }
  return t;
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

async function touch(args: string[], fs: IFileSystem, cwd: string, now: number, orig: (a: string[]) => Promise<ExecResult>): Promise<ExecResult> {
  let when: number | null = now;
  let create = true;
  let noDeref = false;
  let onlyAccess = false;
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const value = (flag: string) => (a.startsWith(`${flag}=`) ? a.slice(flag.length + 1) : a.length > 2 && !a.startsWith('--') ? a.slice(2) : args[++i]);
    if (a === '--') {
      files.push(...args.slice(i + 1));
      break;
    }
    if (a === '-d' || a.startsWith('--date') || (a.startsWith('-d') && a.length > 2)) {
      when = parseDate(value('--date') ?? '', now);
      if (when === null) return orig(args);
    } else if (a === '-t' || (a.startsWith('-t') && a.length > 2)) {
      const v = value('-t') ?? '';
      when = parseStamp(v, now);
      if (when === null) return { stdout: '', stderr: `touch: invalid date format '${v}'\n`, exitCode: 1 };
    } else if (a === '-r' || a.startsWith('--reference') || (a.startsWith('-r') && a.length > 2)) {
      const ref = value('--reference') ?? '';
      try {
        when = (await fs.stat(fs.resolvePath(cwd, ref))).mtime.getTime();
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
      if (onlyAccess || (noDeref && st?.isSymbolicLink)) continue;
      await fs.utimes(p, new Date(when!), new Date(when!));
    } catch (err) {
      stderr += `touch: cannot touch '${name}': ${strerror(err)}\n`;
    }
  }
  return { stdout: '', stderr, exitCode: stderr ? 1 : 0 };
}

/** `touch` for just-bash's `customCommands`; `now` (epoch ms) is the injected clock's time. */
export function touchCommand(now: () => number): CustomCommand {
  return defineCommand('touch', (args, ctx) => touch(args, ctx.fs, ctx.cwd, now(), (a) => ctx.origCommand!(a)));
}
