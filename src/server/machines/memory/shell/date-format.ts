/**
 * GNU `date +FORMAT` in the C locale: every conversion of coreutils' `date` (%a … %Z, %N, %:z, %::z, %:::z, %s, %q,
 * ISO weeks) with the flags `-` `_` `0` `^` `#`, a field width and the ignored `E`/`O` modifiers.
 * @see https://www.gnu.org/software/coreutils/manual/html_node/date-invocation.html (Time conversion specifiers)
 */
import { offsetMinutes, wallOf, zoneAbbreviation } from './date-zone.ts';

const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** The instant to format: epoch ms, the nanoseconds within its second, and the `TZ` value to show it in. */
export interface Instant { ms: number; ns: number; tz: string | undefined }

/** ISO 8601 week-based year and week of a date: the week holding its Thursday. */
function isoWeek(year: number, month: number, day: number): { year: number; week: number } {
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7) + 3);
  const jan1 = new Date(0);
  jan1.setUTCFullYear(d.getUTCFullYear(), 0, 1);
  return { year: d.getUTCFullYear(), week: 1 + Math.floor((d.getTime() - jan1.getTime()) / 86400000 / 7) };
}

/** `+hhmm` with `colons` colons (0–2), or `%:::z`'s shortest form when `colons` is 3. */
function zoneOffsetText(offset: number, colons: number): string {
  const sign = offset < 0 ? '-' : '+';
  const a = Math.abs(offset);
  const hh = String(Math.floor(a / 60)).padStart(2, '0');
  const mm = String(a % 60).padStart(2, '0');
  if (colons === 3) return a % 60 ? `${sign}${hh}:${mm}` : `${sign}${hh}`;
  return colons === 0 ? `${sign}${hh}${mm}` : colons === 1 ? `${sign}${hh}:${mm}` : `${sign}${hh}:${mm}:00`;
}

/**
 * Formats `at` with a GNU `date` FORMAT (without its leading `+`).
 * @returns the text; an unknown conversion is copied as written, as GNU does
 */
export function formatDate(format: string, at: Instant): string {
  const offset = offsetMinutes(at.tz, at.ms);
  const w = wallOf(at.ms, offset);
  const wday = new Date(at.ms + offset * 60000).getUTCDay();
  const yday = Math.floor((Date.UTC(2001, w.month - 1, w.day) - Date.UTC(2001, 0, 1)) / 86400000) + (w.month > 2 && isLeap(w.year) ? 1 : 0);
  const h12 = w.hour % 12 === 0 ? 12 : w.hour % 12;
  let out = '';
  for (let i = 0; i < format.length; i++) {
    const c = format[i]!;
    if (c !== '%') {
      out += c;
      continue;
    }
    const m = /^([-_0^#]*)(\d*)([EO]?)(:{0,3})(.)/s.exec(format.slice(i + 1));
    if (!m) {
      out += c;
      continue;
    }
    const [whole, flags, width, , colons, conv] = m;
    i += whole.length;
    const num = (n: number, def: number, pad = '0') => field(String(Math.abs(n)), n < 0, def, pad, flags!, width!);
    const text = (s: string) => field(s, false, 0, ' ', flags!, width!, true);
    switch (colons ? `${colons}${conv}` : conv) {
      case 'a': out += text(DAY_NAMES[wday]!.slice(0, 3)); break;
      case 'A': out += text(DAY_NAMES[wday]!); break;
      case 'b': case 'h': out += text(MONTH_NAMES[w.month - 1]!.slice(0, 3)); break;
      case 'B': out += text(MONTH_NAMES[w.month - 1]!); break;
      case 'c': out += text(formatDate('%a %b %e %H:%M:%S %Y', at)); break;
      case 'C': out += num(Math.floor(w.year / 100), 2); break;
      case 'd': out += num(w.day, 2); break;
      case 'D': out += text(formatDate('%m/%d/%y', at)); break;
      case 'e': out += num(w.day, 2, ' '); break;
      case 'F': out += text(`${field(String(w.year), w.year < 0, 4, '0', '', '')}-${formatDate('%m-%d', at)}`); break;
      case 'g': out += num(((isoWeek(w.year, w.month, w.day).year % 100) + 100) % 100, 2); break;
      case 'G': out += num(isoWeek(w.year, w.month, w.day).year, 4); break;
      case 'H': out += num(w.hour, 2); break;
      case 'I': out += num(h12, 2); break;
      case 'j': out += num(yday + 1, 3); break;
      case 'k': out += num(w.hour, 2, ' '); break;
      case 'l': out += num(h12, 2, ' '); break;
      case 'm': out += num(w.month, 2); break;
      case 'M': out += num(w.minute, 2); break;
      case 'n': out += '\n'; break;
      case 'N': {
        const digits = String(at.ns).padStart(9, '0');
        out += width ? digits.slice(0, Number(width)).padEnd(Number(width), '0') : digits;
        break;
      }
      // `#` swaps the case (field): `%#p` is `am`. glibc's `%P` stays lower case under `#` and `^`.
      case 'p': out += text(w.hour < 12 ? 'AM' : 'PM'); break;
      case 'P': out += field(w.hour < 12 ? 'am' : 'pm', false, 0, ' ', flags!.replace(/[#^]/g, ''), width!, true); break;
      case 'q': out += num(Math.floor((w.month - 1) / 3) + 1, 1); break;
      case 'r': out += text(formatDate('%I:%M:%S %p', at)); break;
      case 'R': out += text(formatDate('%H:%M', at)); break;
      case 's': out += num(Math.floor(at.ms / 1000), 1); break;
      case 'S': out += num(w.second, 2); break;
      case 't': out += '\t'; break;
      case 'T': out += text(formatDate('%H:%M:%S', at)); break;
      case 'u': out += num(wday === 0 ? 7 : wday, 1); break;
      case 'U': out += num(Math.floor((yday + 7 - wday) / 7), 2); break;
      case 'V': out += num(isoWeek(w.year, w.month, w.day).week, 2); break;
      case 'w': out += num(wday, 1); break;
      case 'W': out += num(Math.floor((yday + 7 - ((wday + 6) % 7)) / 7), 2); break;
      case 'x': out += text(formatDate('%m/%d/%y', at)); break;
      case 'X': out += text(formatDate('%H:%M:%S', at)); break;
      case 'y': out += num(((w.year % 100) + 100) % 100, 2); break;
      case 'Y': out += num(w.year, 1); break;
      case 'z': out += text(zoneOffsetText(offset, 0)); break;
      case ':z': out += text(zoneOffsetText(offset, 1)); break;
      case '::z': out += text(zoneOffsetText(offset, 2)); break;
      case ':::z': out += text(zoneOffsetText(offset, 3)); break;
      case 'Z': out += text(zoneAbbreviation(at.tz, at.ms)); break;
      case '%': out += '%'; break;
      default: out += `%${whole}`;
    }
  }
  return out;
}

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/**
 * One converted field with GNU's flags: `-` no padding, `_` spaces, `0` zeros, `^` upper case, `#` swapped case
 * (text); `width` overrides the default width `def`.
 */
function field(s: string, negative: boolean, def: number, pad: string, flags: string, width: string, isText = false): string {
  let v = s;
  if (flags.includes('^')) v = v.toUpperCase();
  else if (flags.includes('#') && isText) v = v === v.toUpperCase() ? v.toLowerCase() : v.toUpperCase();
  const w = width ? Number(width) : def;
  if (flags.includes('-')) return (negative ? '-' : '') + v;
  const p = flags.includes('_') ? ' ' : flags.includes('0') ? '0' : pad;
  if (p === '0' && !isText) return (negative ? '-' : '') + v.padStart(w - (negative ? 1 : 0), '0');
  return ((negative ? '-' : '') + v).padStart(w, p === '0' && isText ? ' ' : p);
}
