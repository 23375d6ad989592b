/**
 * Dates of the shell engine's `git`: reading `GIT_AUTHOR_DATE`/`GIT_COMMITTER_DATE` (git's internal `@secs ±zone`,
 * RFC 2822, ISO 8601, else what GNU date reads) and printing a commit's date as git's `--date` formats do (default,
 * `iso`, `iso-strict`, `rfc`, `short`, `raw`, `unix`, `relative`), always in the zone the commit recorded.
 * @see git's date.c (show_date, show_date_relative, parse_date)
 */
import { parseDateString } from './date-parse.ts';
import { offsetMinutes, wallOf } from './date-zone.ts';

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** An instant read from a date text: epoch ms and, when the text names one, its zone (minutes east of UTC). */
export interface GitDate {
  ms: number;
  offset: number | null;
}

/** Minutes east of `+hhmm`, `-hh:mm`, `Z`. */
function zoneOf(text: string): number {
  if (text === 'Z' || text === 'z') return 0;
  const m = /^([+-])(\d\d):?(\d\d)$/.exec(text)!;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
}

/**
 * Reads a git date: `@1700000000 +0100` or `1700000000 +0100` (seconds and zone), an ISO 8601 or RFC 2822 date with
 * or without a zone (without one: the zone `tz` names), or anything GNU date reads. Null when nothing reads it.
 */
export function parseGitDate(text: string, now: number, tz: string | undefined): GitDate | null {
  const t = text.trim();
  const raw = /^@?(\d{9,})(?:\s+([+-]\d{4}))?$/.exec(t);
  if (raw) return { ms: Number(raw[1]) * 1000, offset: raw[2] ? zoneOf(raw[2]) : null };
  const zone = /(?:\s|\d)(Z|[+-]\d\d:?\d\d)$/.exec(t);
  const parsed = parseDateString(t.replace(/^(\d{4}-\d\d-\d\d)T/, '$1 '), now, tz ?? 'UTC');
  if (!parsed) return null;
  return { ms: parsed.ms, offset: zone ? zoneOf(zone[1]!) : null };
}

/** `+hhmm` (or `+hh:mm` with `colon`) of `offset` minutes east. */
export function zoneText(offset: number, colon = false): string {
  const a = Math.abs(offset);
  return `${offset < 0 ? '-' : '+'}${String(Math.floor(a / 60)).padStart(2, '0')}${colon ? ':' : ''}${String(a % 60).padStart(2, '0')}`;
}

/** The zone of `tz` at `ms`, minutes east of UTC. */
export const zoneAt = (tz: string | undefined) => (ms: number) => offsetMinutes(tz, ms);

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** git's relative date of `seconds` against `now` seconds (`3 hours ago`, `2 years, 1 month ago`). */
export function relativeDate(seconds: number, now: number): string {
  if (now < seconds) return 'in the future';
  let diff = now - seconds;
  const ago = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'} ago`;
  if (diff < 90) return ago(diff, 'second');
  diff = Math.floor((diff + 30) / 60);
  if (diff < 90) return ago(diff, 'minute');
  diff = Math.floor((diff + 30) / 60);
  if (diff < 36) return ago(diff, 'hour');
  diff = Math.floor((diff + 12) / 24);
  if (diff < 14) return ago(diff, 'day');
  if (diff < 70) return ago(Math.floor((diff + 3) / 7), 'week');
  if (diff < 365) return ago(Math.floor((diff + 15) / 30), 'month');
  if (diff < 1825) {
    const total = Math.floor((diff * 12 * 2 + 365) / (365 * 2));
    const years = Math.floor(total / 12);
    const months = total % 12;
    return months ? `${years} year${years === 1 ? '' : 's'}, ${ago(months, 'month')}` : ago(years, 'year');
  }
  return ago(Math.floor((diff + 183) / 365), 'year');
}

/** The date formats of `--date=` this engine prints. */
export type DateMode = 'default' | 'iso' | 'iso-strict' | 'rfc' | 'short' | 'raw' | 'unix' | 'relative';

/** Whether `mode` is a `--date=` value this engine knows. */
export const isDateMode = (mode: string): mode is DateMode => ['default', 'iso', 'iso-strict', 'rfc', 'short', 'raw', 'unix', 'relative'].includes(mode);

/**
 * `seconds` (recorded at `offset` minutes east) in `mode`; `now` (epoch seconds) for `relative`.
 */
export function showDate(seconds: number, offset: number, mode: DateMode, now: number): string {
  const w = wallOf(seconds * 1000, offset);
  const wday = DAYS[new Date((seconds + offset * 60) * 1000).getUTCDay()]!;
  const time = `${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}`;
  const day = `${w.year}-${pad(w.month)}-${pad(w.day)}`;
  switch (mode) {
    case 'iso':
      return `${day} ${time} ${zoneText(offset)}`;
    case 'iso-strict':
      // git before 2.45 writes UTC as `+00:00` here, never `Z`.
      return `${day}T${time}${zoneText(offset, true)}`;
    case 'rfc':
      return `${wday}, ${w.day} ${MONTHS[w.month - 1]} ${w.year} ${time} ${zoneText(offset)}`;
    case 'short':
      return day;
    case 'raw':
      return `${seconds} ${zoneText(offset)}`;
    case 'unix':
      return String(seconds);
    case 'relative':
      return relativeDate(seconds, now);
    default:
      return `${wday} ${MONTHS[w.month - 1]} ${w.day} ${time} ${w.year} ${zoneText(offset)}`;
  }
}
