/**
 * The columns of GNU `ls -l` (C locale, UTC): type and mode, links, owner, group, size (or `major, minor` of a
 * device), date in the chosen time style, and the allocated blocks `-s` and `total` count. Pure formatting of one
 * directory's rows; which files are listed and how names are quoted is ls-command.ts's.
 * @see https://www.gnu.org/software/coreutils/manual/html_node/What-information-is-listed.html
 */
import { accessTime, nanosText, secondsAndNanos } from './file-time.ts';
import type { FsStat } from 'just-bash';
import { DEVICE_NUMBERS, ownerOf } from './devices.ts';
import { formatDate } from './date-format.ts';
import type { BlockSize, LsOptions } from './ls-options.ts';
import { GROUP_NAMES, USER_NAMES } from '../accounts.ts';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const SIX_MONTHS_MS = 182 * 24 * 3600 * 1000;

/** The long-format columns that vary per listing. */
export interface LongColumns {
  owner: boolean;
  group: boolean;
  numeric: boolean;
  human: 0 | 1000 | 1024;
  blockSize: BlockSize | undefined;
  timeStyle: LsOptions['timeStyle'];
  /** Which time the date column shows (`-u`: the access time). */
  time: LsOptions['time'];
  now: number;
}

/** One row of a long listing, before alignment. */
export interface LongRow {
  mode: string;
  links: string;
  owner: string;
  group: string;
  size: string;
  date: string;
  /** The name, quoted, with ` -> target` and indicators already attached. */
  name: string;
}

/** 1 KiB blocks a file occupies (a 4 KiB block per started 4 KiB of data; none for links and devices). */
/** The time `ls` shows and sorts by for `st`: its modification time, or with `-u` its access time. */
export function shownTime(st: FsStat, time: LsOptions['time']): Date {
  return time === 'atime' ? accessTime(st) : st.mtime;
}

export function blocksOf(st: FsStat): number {
  if (st.isDirectory) return 4;
  if (st.isSymbolicLink || ownerOf(st).device) return 0;
  return Math.ceil(st.size / 4096) * 4;
}

/** The `-s` and `total` figure for `kib` KiB: the number, or `4.0K`-style with -h/--si. */
export function blockFigure(kib: number, human: 0 | 1000 | 1024, unit?: BlockSize): string {
  if (unit) return inUnits(kib * 1024, unit);
  return human ? humanSize(kib * 1024, human) : String(kib);
}

/** `bytes` in `--block-size` units, rounded up, with the unit's suffix. */
const inUnits = (bytes: number, unit: BlockSize) => `${Math.ceil(bytes / unit.unit)}${unit.suffix}`;

/** The row of `st`, whose displayed name (with any link target) is `name`, base name `base`, link count `links`. */
export function longRow(st: FsStat, name: string, base: string, cols: LongColumns, links: number): LongRow {
  const facts = ownerOf(st);
  const type = facts.device ? 'c' : st.isSymbolicLink ? 'l' : st.isDirectory ? 'd' : '-';
  const who = (id: number, names: Readonly<Record<number, string>>) => (cols.numeric ? String(id) : (names[id] ?? String(id)));
  const size = facts.device ? (DEVICE_NUMBERS[base] ?? [1, 3]).join(', ') : cols.blockSize ? inUnits(st.size, cols.blockSize) : cols.human ? humanSize(st.size, cols.human) : String(st.size);
  return {
    mode: `${type}${permissions(st.mode)}`,
    links: String(links),
    owner: who(facts.uid, USER_NAMES),
    group: who(facts.gid, GROUP_NAMES),
    size,
    date: lsDate(shownTime(st, cols.time), cols.now, cols.timeStyle),
    name,
  };
}

/**
 * Rows aligned as GNU ls aligns them (numbers right, names left); `prefix[i]` (the `-s` column, already padded)
 * goes before row i.
 */
export function longTable(rows: LongRow[], cols: LongColumns, prefix: string[], eol: string): string {
  const width = (k: keyof LongRow) => Math.max(...rows.map((r) => r[k].length));
  const [l, o, g, s] = [width('links'), width('owner'), width('group'), width('size')];
  return rows
    .map((r, i) => {
      const who = `${cols.owner ? `${r.owner.padEnd(o)} ` : ''}${cols.group ? `${r.group.padEnd(g)} ` : ''}`;
      return `${prefix[i] ?? ''}${r.mode} ${r.links.padStart(l)} ${who}${r.size.padStart(s)} ${r.date} ${r.name}${eol}`;
    })
    .join('');
}

/** `rwxr-xr-x` of a mode, with the setuid, setgid and sticky bits as `s`/`S`, `t`/`T`. */
export function permissions(mode: number): string {
  const bit = (m: number, c: string) => ((mode & m) !== 0 ? c : '-');
  const special = (exec: number, flag: number, on: string) => {
    const x = (mode & exec) !== 0;
    if ((mode & flag) === 0) return x ? 'x' : '-';
    return x ? on : on.toUpperCase();
  };
  return (
    bit(0o400, 'r') + bit(0o200, 'w') + special(0o100, 0o4000, 's') +
    bit(0o40, 'r') + bit(0o20, 'w') + special(0o10, 0o2000, 's') +
    bit(0o4, 'r') + bit(0o2, 'w') + special(0o1, 0o1000, 't')
  );
}

/** GNU's human-readable size: `unit` 1024 (`-h`, `K M G`) or 1000 (`--si`, `k M G`), one decimal under 10, rounded up. */
export function humanSize(n: number, unit: 1000 | 1024 = 1024): string {
  if (n < unit) return String(n);
  const units = unit === 1024 ? ['K', 'M', 'G', 'T', 'P'] : ['k', 'M', 'G', 'T', 'P'];
  let v = n;
  let u = -1;
  while (v >= unit && u < units.length - 1) {
    v /= unit;
    u++;
  }
  if (v < 10) {
    const tenths = Math.ceil(v * 10 - 1e-9) / 10;
    if (tenths < 10) return `${tenths.toFixed(1)}${units[u]}`;
    v = 10;
  }
  const whole = Math.ceil(v - 1e-9);
  if (whole >= unit && u < units.length - 1) return `1.0${units[u + 1]}`;
  return `${whole}${units[u]}`;
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** The date column: `Mmm dd HH:MM` (or `Mmm dd  YYYY` over six months from now), or an ISO style. */
function lsDate(d: Date, now: number, style: LongColumns['timeStyle']): string {
  const ms = d.getTime();
  const ymd = `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}`;
  const hm = `${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}`;
  const recent = Math.abs(now - ms) <= SIX_MONTHS_MS;
  if (style.startsWith('+')) {
    // `+OLD\nRECENT`: the second format for files of the last six months (GNU ls).
    const [old, fresh] = style.slice(1).split('\n');
    return formatDate(recent && fresh !== undefined ? fresh : old!, { ms, ns: secondsAndNanos(d).nanos, tz: 'UTC' });
  }
  if (style === 'full-iso') {
    return `${ymd} ${hm}:${pad2(d.getUTCSeconds())}.${nanosText(d)} +0000`;
  }
  if (style === 'long-iso') return `${ymd} ${hm}`;
  if (style === 'iso') return recent ? `${ymd.slice(5)} ${hm}` : `${ymd} `;
  const day = String(d.getUTCDate()).padStart(2);
  const month = MONTHS[d.getUTCMonth()]!;
  return recent ? `${month} ${day} ${hm}` : `${month} ${day}  ${d.getUTCFullYear()}`;
}
