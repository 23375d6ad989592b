/**
 * Time zones for `date` and `touch -d`: a zone's offset at an instant and its abbreviation (from the `TZ` variable:
 * an IANA name, `UTC`, `:Area/City`, or a POSIX `STDoffset` such as `UTC0`, `GMT+5`, `<+0530>-5:30`), and the conversion between epoch ms and wall-clock
 * fields in a zone, through Node's Intl time zone data (offsets) and the host's tzdata files (abbreviations).
 * @see tzset(3) (the `TZ` forms), https://www.gnu.org/software/coreutils/manual/html_node/TZ-Variable.html
 */
import { readFileSync } from 'node:fs';

/** Wall-clock fields: month 1–12, day of month, and a millisecond part. */
export interface Wall { year: number; month: number; day: number; hour: number; minute: number; second: number; ms: number }

const formatters = new Map<string, Intl.DateTimeFormat | null>();

/** The IANA zone a `TZ` value names, or null for UTC (unset, empty, `UTC`, `UTC0`, `GMT0`, or a name Intl lacks). */
export function zoneName(tz: string | undefined): string | null {
  const name = (tz ?? '').replace(/^:/, '');
  if (name === '' || /^(UTC|GMT|UCT|Zulu)0?$/i.test(name)) return null;
  return formatter(name) ? name : null;
}

function formatter(name: string): Intl.DateTimeFormat | null {
  if (!formatters.has(name)) {
    try {
      formatters.set(name, new Intl.DateTimeFormat('en-US', { timeZone: name, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric', timeZoneName: 'short' }));
    } catch {
      formatters.set(name, null);
    }
  }
  return formatters.get(name)!;
}

/**
 * A POSIX `TZ` of a standard time alone, `STDoffset` (tzset(3): a name of 3+ letters or `<…>`, then hours[:minutes]
 * WEST of UTC, an optional sign): its abbreviation and minutes east. Null for any other form (one with a daylight
 * part keeps the IANA or UTC reading).
 */
function posixStandardTime(tz: string | undefined): { abbr: string; east: number } | null {
  const m = /^:?(?:<([A-Za-z0-9+-]+)>|([A-Za-z]{3,}))([+-]?)(\d{1,2})(?::(\d{1,2}))?$/.exec(tz ?? '');
  if (!m) return null;
  const west = (Number(m[4]) * 60 + Number(m[5] ?? 0)) * (m[3] === '-' ? -1 : 1);
  return { abbr: m[1] ?? m[2]!, east: -west };
}

/** Minutes east of UTC of the zone `tz` (a `TZ` value) at epoch ms `ms`. */
export function offsetMinutes(tz: string | undefined, ms: number): number {
  const name = zoneName(tz);
  if (!name) return posixStandardTime(tz)?.east ?? 0;
  const parts = Object.fromEntries(formatter(name)!.formatToParts(new Date(ms)).map((p) => [p.type, p.value]));
  const asUtc = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  return Math.round((asUtc - (ms - (((ms % 1000) + 1000) % 1000))) / 60000);
}

const abbreviationTables = new Map<string, Map<number, string> | null>();

/**
 * The abbreviations of a zone by UTC offset (minutes), from the host's tzdata file (`/usr/share/zoneinfo/NAME`, the
 * file glibc reads): each offset's most recent abbreviation in the transitions, then the footer's POSIX rule (which
 * names the zone's current standard and daylight time). Null when the host has no such file.
 */
function abbreviationTable(name: string): Map<number, string> | null {
  if (!abbreviationTables.has(name)) {
    let table: Map<number, string> | null = null;
    // Only a zone name (Intl accepted it already) is joined to the tzdata directory: never a path out of it.
    if (!/^[A-Za-z0-9_+-]+(\/[A-Za-z0-9_+-]+)*$/.test(name)) return null;
    try {
      table = parseTzif(readFileSync(`/usr/share/zoneinfo/${name}`));
    } catch {
      table = null;
    }
    abbreviationTables.set(name, table);
  }
  return abbreviationTables.get(name)!;
}

/** Offset → abbreviation from a TZif file (RFC 8536): its version-2 data block (64-bit times) and footer. */
function parseTzif(b: Buffer): Map<number, string> | null {
  if (b.toString('latin1', 0, 4) !== 'TZif') return null;
  const counts = (at: number) => [0, 1, 2, 3, 4, 5].map((k) => b.readUInt32BE(at + 20 + 4 * k)) as [number, number, number, number, number, number];
  const [isut1, isstd1, leap1, time1, type1, char1] = counts(0);
  const v1 = 44 + time1 * 5 + type1 * 6 + char1 + leap1 * 8 + isstd1 + isut1;
  const v2 = b[4]! >= 0x32 && b.toString('latin1', v1, v1 + 4) === 'TZif';
  const base = v2 ? v1 : 0;
  const [isut, isstd, leap, times, types, chars] = counts(base);
  const timeSize = v2 ? 8 : 4;
  const idxAt = base + 44 + times * timeSize;
  const typeAt = idxAt + times;
  const charAt = typeAt + types * 6;
  const type = (i: number) => ({ off: Math.round(b.readInt32BE(typeAt + 6 * i) / 60), abbr: b.toString('latin1', charAt + b[typeAt + 6 * i + 5]!, b.indexOf(0, charAt + b[typeAt + 6 * i + 5]!)) });
  const table = new Map<number, string>();
  const first = type(0);
  table.set(first.off, first.abbr);
  for (let t = 0; t < times; t++) {
    const x = type(b[idxAt + t]!);
    table.set(x.off, x.abbr);
  }
  if (v2) {
    const footerAt = charAt + chars + leap * 12 + isstd + isut;
    const footer = b.toString('latin1', footerAt).split('\n')[1] ?? '';
    // `STD offset [DST [offset]][,rules]`; names are letters or `<…>`; offsets are hours west, DST one hour ahead.
    const m = /^(<[^>]+>|[A-Za-z]+)([+-]?\d+(?::\d+)?)(<[^>]+>|[A-Za-z]+)?/.exec(footer);
    if (m) {
      const [h = '0', mi = '0'] = m[2]!.replace(/^\+/, '').split(':');
      const west = (Math.abs(Number(h)) * 60 + Number(mi)) * (h.startsWith('-') ? -1 : 1);
      const unquote = (n: string) => n.replace(/^<|>$/g, '');
      table.set(-west, unquote(m[1]!));
      if (m[3]) table.set(-west + 60, unquote(m[3]));
    }
  }
  return table;
}

/**
 * The abbreviation glibc gives a TZ that names no zone file and is no complete POSIX TZ string: the letters it starts
 * with read as the standard time's name when there are at least three (`Nowhere/Zone` → `Nowhere`, `abc_def` →
 * `abc`), else none (`ab`, `/nope`); `UTC` for an unset or empty TZ.
 */
function unknownZoneAbbreviation(tz: string | undefined): string {
  const text = (tz ?? '').replace(/^:/, '');
  if (text === '') return 'UTC';
  const letters = /^[A-Za-z]*/.exec(text)![0];
  return letters.length >= 3 ? letters : '';
}

/** The abbreviation of the zone `tz` at epoch ms `ms` (`UTC`, `CET`; `+0530`-style where the zone data has none). */
export function zoneAbbreviation(tz: string | undefined, ms: number): string {
  const name = zoneName(tz);
  if (!name) return posixStandardTime(tz)?.abbr ?? unknownZoneAbbreviation(tz);
  const fromTzdata = abbreviationTable(name)?.get(offsetMinutes(tz, ms));
  if (fromTzdata) return fromTzdata;
  const short = formatter(name)!.formatToParts(new Date(ms)).find((p) => p.type === 'timeZoneName')?.value ?? '';
  if (/^[A-Z]{2,5}$/.test(short)) return short;
  const off = offsetMinutes(tz, ms);
  const a = Math.abs(off);
  // tzdata's own abbreviation for zones without letters is the numeric offset (`+03`, `+0530`).
  return `${off < 0 ? '-' : '+'}${String(Math.floor(a / 60)).padStart(2, '0')}${a % 60 ? String(a % 60).padStart(2, '0') : ''}`;
}

/** Wall-clock fields of epoch ms `ms` at `offset` minutes east of UTC. */
export function wallOf(ms: number, offset: number): Wall {
  const d = new Date(ms + offset * 60000);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: d.getUTCHours(), minute: d.getUTCMinutes(), second: d.getUTCSeconds(), ms: d.getUTCMilliseconds() };
}

/**
 * Epoch ms of wall-clock fields (out-of-range fields normalise, as mktime does) in a zone whose offset at an instant
 * is `offsetAt(ms)`; a time skipped by a DST change moves forward by the change, as glibc's mktime does.
 */
export function wallToEpoch(w: Wall, offsetAt: (ms: number) => number): number {
  const d = new Date(0);
  d.setUTCFullYear(w.year, w.month - 1, w.day);
  d.setUTCHours(w.hour, w.minute, w.second, w.ms);
  const asUtc = d.getTime();
  let guess = asUtc - offsetAt(asUtc) * 60000;
  guess = asUtc - offsetAt(guess) * 60000;
  return guess;
}
