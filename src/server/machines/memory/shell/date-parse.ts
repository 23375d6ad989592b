/**
 * GNU's date input strings (`date -d`, `touch -d`): `@SECONDS`, calendar dates (ISO `2024-01-05`, `01/05/2024`,
 * `5 Jan 2024`, `Jan 5, 2024`, `20240105`), times (`10:20[:30[.5]]`, `3pm`, with a zone offset), zones (`UTC`, `Z`,
 * `+0200`, US abbreviations), weekdays (`monday`, `next fri`, `last sun`), and relative items (`+3 days`,
 * `2 hours ago`, `next week`, `tomorrow`, `now`), combined and resolved as gnulib's parse-datetime does it.
 * @see https://www.gnu.org/software/coreutils/manual/html_node/Date-input-formats.html (gnulib parse-datetime.y)
 */
import { offsetMinutes, wallToEpoch, wallOf, type Wall } from './date-zone.ts';

type Token = { kind: 'num'; value: number; digits: number; signed: boolean; text: string } | { kind: 'word'; value: string } | { kind: 'punct'; value: string };

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const DAY_ABBREVIATIONS: Record<string, number> = { tues: 2, wednes: 3, thur: 4, thurs: 4 };
const ORDINALS: Record<string, number> = { last: -1, this: 0, next: 1, first: 1, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9, tenth: 10, eleventh: 11, twelfth: 12 };
/** Relative units: field and multiplier. */
const UNITS: Record<string, [keyof Relative, number]> = {
  year: ['year', 1], month: ['month', 1], fortnight: ['day', 14], week: ['day', 7], day: ['day', 1],
  hour: ['hour', 1], minute: ['minute', 1], min: ['minute', 1], second: ['second', 1], sec: ['second', 1],
};
/** Zone abbreviations gnulib knows, in minutes east of UTC. */
const ZONES: Record<string, number> = {
  utc: 0, ut: 0, gmt: 0, z: 0, wet: 0, bst: 60, cet: 60, met: 60, mez: 60, eet: 120, cest: 120, mest: 120, eest: 180,
  est: -300, edt: -240, cst: -360, cdt: -300, mst: -420, mdt: -360, pst: -480, pdt: -420, akst: -540, akdt: -480,
  hst: -600, ist: 330, jst: 540, msk: 180, nzst: 720, nzdt: 780, aest: 600, aedt: 660,
  // Military zones: A–M (no J) are +1…+12 hours, N–Y are −1…−12 (gnulib's table).
  ...Object.fromEntries([...'abcdefghiklm'].map((c, i) => [c, (i + 1) * 60])),
  ...Object.fromEntries([...'nopqrstuvwxy'].map((c, i) => [c, -(i + 1) * 60])),
};
/** gnulib rejects a numeric zone offset of more than a day (`12:00 +25`, `12:00 + 90 minutes`). */
const DAY_MINUTES = 24 * 60;
const DAY_SHIFTS: Record<string, number> = { tomorrow: 1, yesterday: -1, today: 0, now: 0 };

interface Relative { year: number; month: number; day: number; hour: number; minute: number; second: number }

/** What the items of a date string set. */
interface Parsed {
  date?: { year?: number; yearDigits?: number; month: number; day: number };
  time?: { hour: number; minute: number; second: number; ns: number };
  zone?: number;
  weekday?: { day: number; ordinal: number };
  rel: Relative;
  relSeen: boolean;
}

function tokenize(text: string): Token[] | null {
  const out: Token[] = [];
  const s = text.toLowerCase();
  for (let i = 0; i < s.length; ) {
    const c = s[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    // A parenthesised comment is ignored (GNU).
    if (c === '(') {
      let depth = 0;
      for (; i < s.length; i++) {
        if (s[i] === '(') depth++;
        else if (s[i] === ')' && --depth === 0) break;
      }
      i++;
      continue;
    }
    const num = /^([+-]?)\s*(\d+)/.exec(s.slice(i));
    if (num && (/\d/.test(c) || ((c === '+' || c === '-') && num[0].length > 1))) {
      out.push({ kind: 'num', value: Number(num[2]) * (num[1] === '-' ? -1 : 1), digits: num[2]!.length, signed: num[1] !== '', text: num[2]! });
      i += num[0].length;
      continue;
    }
    const word = /^[a-z]+(?:\.(?=[a-z]))?(?:[a-z]+\.?)*/.exec(s.slice(i));
    if (word) {
      out.push({ kind: 'word', value: word[0].replace(/\.$/, '') });
      i += word[0].length;
      continue;
    }
    if (':,/.@'.includes(c)) {
      out.push({ kind: 'punct', value: c });
      i++;
      continue;
    }
    return null;
  }
  return out;
}

const monthOf = (w: string) => {
  if (w === 'sept') return 9;
  const i = MONTHS.findIndex((m) => m === w || (w.length === 3 && m.startsWith(w)));
  return i < 0 ? undefined : i + 1;
};
const dayOf = (w: string) => {
  const i = DAYS.findIndex((d) => d === w || (w.length === 3 && d.startsWith(w)));
  return i >= 0 ? i : DAY_ABBREVIATIONS[w];
};
const unitOf = (w: string) => UNITS[w] ?? (w.endsWith('s') ? UNITS[w.slice(0, -1)] : undefined);

/** A year as written: two digits are 1969–2068 (POSIX). */
const fullYear = (value: number, digits: number) => (digits === 2 ? (value < 69 ? 2000 + value : 1900 + value) : value);

/** Parses the items of a date string; null when it is not one. */
/** A fraction's digits as nanoseconds: the first nine, padded (GNU truncates finer ones). */
const nineDigits = (frac: string): string => frac.slice(0, 9).padEnd(9, '0');

function parseItems(text: string): Parsed | null {
  const t = tokenize(text);
  if (!t) return null;
  const p: Parsed = { rel: { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 }, relSeen: false };
  let i = 0;
  const at = (k: number) => t[i + k];
  const isNum = (k: number, signed?: boolean) => {
    const x = at(k);
    return x?.kind === 'num' && (signed === undefined || x.signed === signed);
  };
  const num = (k: number) => at(k) as Extract<Token, { kind: 'num' }>;
  const isPunct = (k: number, v: string) => at(k)?.kind === 'punct' && at(k)!.value === v;
  const word = (k: number) => (at(k)?.kind === 'word' ? (at(k)!.value as string) : undefined);
  const setDate = (year: { value: number; digits: number } | undefined, month: number, day: number) => {
    if (p.date) return false;
    p.date = { month, day, ...(year ? { year: fullYear(year.value, year.digits), yearDigits: year.digits } : {}) };
    return true;
  };
  /** A zone offset `+H`, `+HH`, `+HHMM`, `+HH:MM` at k (signed number), in minutes; consumed count via `used`. */
  const zoneOffset = (k: number): { minutes: number; used: number } | null => {
    if (!isNum(k, true)) return null;
    const n = num(k);
    const sign = n.value < 0 || Object.is(n.value, -0) ? -1 : 1;
    const abs = Math.abs(n.value);
    if (isPunct(k + 1, ':') && isNum(k + 2, false) && n.digits <= 2) return { minutes: sign * (abs * 60 + num(k + 2).value), used: 3 };
    if (n.digits <= 2) return { minutes: sign * abs * 60, used: 1 };
    if (n.digits <= 4) return { minutes: sign * (Math.floor(abs / 100) * 60 + (abs % 100)), used: 1 };
    return null;
  };
  const meridian = (k: number) => {
    const w = word(k);
    return w === 'am' || w === 'a.m' ? 'am' : w === 'pm' || w === 'p.m' ? 'pm' : undefined;
  };
  const setTime = (hour: number, minute: number, second: number, ns: number, mer?: 'am' | 'pm') => {
    if (p.time) return false;
    if (mer) {
      if (hour < 1 || hour > 12) return false;
      hour = (hour % 12) + (mer === 'pm' ? 12 : 0);
    }
    p.time = { hour, minute, second, ns };
    return true;
  };
  const addRel = (field: keyof Relative, n: number) => {
    p.rel[field] += n;
    p.relSeen = true;
  };

  if (t.length >= 2 && isPunct(0, '@') && isNum(1)) {
    // `@SECONDS[.FRACTION]` stands alone.
    const frac = isPunct(2, '.') || isPunct(2, ',') ? num(3) : undefined;
    if (t.length !== (frac ? 4 : 2)) return null;
    p.date = undefined;
    // Exact to the nanosecond (a double holds no nine decimals of today's seconds); digits past nine are dropped.
    const whole = BigInt(num(1).text) * 1_000_000_000n + BigInt(nineDigits(frac?.text ?? ''));
    const epochNs = 1 / num(1).value < 0 ? -whole : whole;
    return { ...p, epochNs } as Parsed & { epochNs: bigint };
  }

  while (i < t.length) {
    const tok = t[i]!;
    // ISO date YYYY-MM-DD (the dashes read as signs), optionally followed by `T` and a time.
    if (isNum(0, false) && isNum(1, true) && isNum(2, true) && num(1).value <= 0 && num(2).value <= 0 && num(1).digits <= 2 && num(2).digits <= 2) {
      if (!setDate({ value: num(0).value, digits: num(0).digits }, -num(1).value, -num(2).value)) return null;
      i += 3;
      if (word(0) === 't' && isNum(1, false)) i++;
      else if (at(0)?.kind === 'word' && /^t\d/.test(String(at(0)!.value))) return null;
      continue;
    }
    // The ISO `T` glued to the hour: tokenize gives `t` then the number only when spaced; handle `tHH` words.
    if (tok.kind === 'num' && !tok.signed) {
      // Times: H:MM[:SS[.frac]] [am|pm | zone offset]
      if (isPunct(1, ':') && isNum(2, false)) {
        const hour = tok.value;
        const minute = num(2).value;
        let second = 0;
        let ns = 0;
        let k = 3;
        if (isPunct(3, ':') && isNum(4, false)) {
          second = num(4).value;
          k = 5;
          if ((isPunct(5, '.') || isPunct(5, ',')) && isNum(6, false)) {
            ns = Number(nineDigits(num(6).text));
            k = 7;
          }
        }
        const mer = meridian(k);
        if (mer) k++;
        if (!setTime(hour, minute, second, ns, mer)) return null;
        if (!mer) {
          const z = zoneOffset(k);
          if (z) {
            if (p.zone !== undefined || Math.abs(z.minutes) > DAY_MINUTES) return null;
            p.zone = z.minutes;
            k += z.used;
          }
        }
        i += k;
        continue;
      }
      // H am/pm
      const mer = meridian(1);
      if (mer) {
        if (!setTime(tok.value, 0, 0, 0, mer)) return null;
        i += 2;
        continue;
      }
      // MM/DD[/YY[YY]] or YYYY/MM/DD
      if (isPunct(1, '/') && isNum(2, false)) {
        if (isPunct(3, '/') && isNum(4, false)) {
          const ok = tok.digits >= 4 ? setDate({ value: tok.value, digits: tok.digits }, num(2).value, num(4).value) : setDate({ value: num(4).value, digits: num(4).digits }, tok.value, num(2).value);
          if (!ok) return null;
          i += 5;
        } else {
          if (!setDate(undefined, tok.value, num(2).value)) return null;
          i += 3;
        }
        continue;
      }
      // DD month [YYYY] and DD-mon-YYYY
      const m = word(1) !== undefined ? monthOf(word(1)!) : undefined;
      if (m !== undefined) {
        if (isNum(2, true) && num(2).value <= 0) {
          if (!setDate({ value: -num(2).value, digits: num(2).digits }, m, tok.value)) return null;
          i += 3;
        } else if (isNum(2, false)) {
          if (!setDate({ value: num(2).value, digits: num(2).digits }, m, tok.value)) return null;
          i += 3;
        } else {
          if (!setDate(undefined, m, tok.value)) return null;
          i += 2;
        }
        continue;
      }
      // N unit [ago], N weekday
      const u = word(1) !== undefined ? unitOf(word(1)!) : undefined;
      if (u) {
        const ago = word(2) === 'ago' ? -1 : 1;
        addRel(u[0], tok.value * u[1] * ago);
        i += ago < 0 ? 3 : 2;
        continue;
      }
      const d = word(1) !== undefined ? dayOf(word(1)!) : undefined;
      if (d !== undefined) {
        if (p.weekday) return null;
        p.weekday = { day: d, ordinal: tok.value };
        i += isPunct(2, ',') ? 3 : 2;
        continue;
      }
      // A bare number (gnulib's digits_to_date_time).
      if (p.date && p.date.year === undefined && !p.relSeen && (p.time || tok.digits > 2)) p.date.year = tok.value;
      else if (tok.digits > 4) {
        if (!setDate({ value: Math.floor(tok.value / 10000), digits: tok.digits - 4 }, Math.floor(tok.value / 100) % 100, tok.value % 100)) return null;
      } else if (!setTime(tok.digits <= 2 ? tok.value : Math.floor(tok.value / 100), tok.digits <= 2 ? 0 : tok.value % 100, 0, 0)) return null;
      i++;
      continue;
    }
    if (tok.kind === 'num' && tok.signed) {
      const u = word(1) !== undefined ? unitOf(word(1)!) : undefined;
      if (!u) return null;
      const ago = word(2) === 'ago' ? -1 : 1;
      addRel(u[0], tok.value * u[1] * ago);
      i += ago < 0 ? 3 : 2;
      continue;
    }
    if (tok.kind === 'word') {
      const w = tok.value;
      const m = monthOf(w);
      if (m !== undefined) {
        // month DD[, YYYY], month-DD-YYYY, month YYYY is not GNU's (it reads DD)
        if (isNum(1, false)) {
          if (isPunct(2, ',') && isNum(3, false)) {
            if (!setDate({ value: num(3).value, digits: num(3).digits }, m, num(1).value)) return null;
            i += 4;
          } else {
            if (!setDate(undefined, m, num(1).value)) return null;
            i += 2;
          }
        } else if (isNum(1, true) && isNum(2, true) && num(1).value <= 0 && num(2).value <= 0) {
          if (!setDate({ value: -num(2).value, digits: num(2).digits }, m, -num(1).value)) return null;
          i += 3;
        } else return null;
        continue;
      }
      const d = dayOf(w);
      if (d !== undefined) {
        if (p.weekday) return null;
        p.weekday = { day: d, ordinal: 0 };
        i += isPunct(1, ',') ? 2 : 1;
        continue;
      }
      if (w in ORDINALS) {
        const n = ORDINALS[w]!;
        const next = word(1);
        const u = next !== undefined ? unitOf(next) : undefined;
        if (u) {
          const ago = word(2) === 'ago' ? -1 : 1;
          addRel(u[0], n * u[1] * ago);
          i += ago < 0 ? 3 : 2;
          continue;
        }
        const dd = next !== undefined ? dayOf(next) : undefined;
        if (dd !== undefined) {
          if (p.weekday) return null;
          p.weekday = { day: dd, ordinal: n };
          i += isPunct(2, ',') ? 3 : 2;
          continue;
        }
        return null;
      }
      if (w in DAY_SHIFTS) {
        addRel('day', DAY_SHIFTS[w]!);
        i++;
        continue;
      }
      const u = unitOf(w);
      if (u) {
        const ago = word(1) === 'ago' ? -1 : 1;
        addRel(u[0], u[1] * ago);
        i += ago < 0 ? 2 : 1;
        continue;
      }
      if (w in ZONES) {
        if (p.zone !== undefined) return null;
        p.zone = ZONES[w]!;
        i++;
        // `UTC+2` style: a zone followed by an offset.
        const z = zoneOffset(0);
        // `UTC +5 min` is the zone and a relative item (gnulib's `tZONE relunit_snumber`).
        const unitFollows = z?.used === 1 && word(1) !== undefined && unitOf(word(1)!) !== undefined;
        if (z && !unitFollows && (w === 'utc' || w === 'gmt' || w === 'ut' || w === 'z')) {
          if (Math.abs(z.minutes) > DAY_MINUTES) return null;
          p.zone += z.minutes;
          i += z.used;
        }
        continue;
      }
      if (w === 't' && isNum(1, false)) {
        i++;
        continue;
      }
      return null;
    }
    return null;
  }
  return p;
}

/** A leading `TZ="…"` of a date string (gnulib: `\"` and `\\` escape within the quotes): the zone, the rest. */
const TZ_PREFIX = /^\s*TZ="((?:[^"\\]|\\["\\])*)"/;

/**
 * Epoch ms (and the nanoseconds within that second) of a GNU date string, read in the zone `tz` (a `TZ` value)
 * relative to `now` (epoch ms); null when GNU date would say `invalid date`. A string that starts with `TZ="ZONE"`
 * is read in ZONE instead (`date -d 'TZ="America/New_York" 2024-01-01 12:00'`; a zone the host does not know reads
 * as UTC, as glibc's does), as GNU's manual ("Specifying time zone rules") says.
 */
export function parseDateString(text: string, now: number, tz = 'UTC'): { ms: number; ns: number } | null {
  const rule = TZ_PREFIX.exec(text);
  if (rule) {
    const rest = text.slice(rule[0].length);
    return TZ_PREFIX.test(rest) ? null : parseDateString(rest, now, rule[1]!.replace(/\\(["\\])/g, '$1'));
  }
  const p = parseItems(text) as (Parsed & { epochNs?: bigint }) | null;
  if (!p) return null;
  if (p.epochNs !== undefined) {
    const floorDiv = (a: bigint, b: bigint) => (a >= 0n ? a / b : -((-a + b - 1n) / b));
    const ms = Number(floorDiv(p.epochNs, 1_000_000n));
    return { ms, ns: Number(p.epochNs - floorDiv(p.epochNs, 1_000_000_000n) * 1_000_000_000n) };
  }
  const zoneOf = (ms: number) => (p.zone !== undefined ? p.zone : offsetMinutes(tz, ms));
  // The fields a string leaves out come from the local time (TZ), even when it names another zone (gnulib).
  const nowWall = wallOf(now, offsetMinutes(tz, now));
  const w: Wall = { ...nowWall };
  if (p.date) {
    w.year = p.date.year ?? nowWall.year;
    w.month = p.date.month;
    w.day = p.date.day;
  }
  let ns = (now % 1000) * 1e6;
  if (p.time) {
    Object.assign(w, { hour: p.time.hour, minute: p.time.minute, second: p.time.second, ms: Math.floor(p.time.ns / 1e6) });
    ns = p.time.ns;
  } else if (!(p.relSeen && !p.date && !p.weekday)) {
    Object.assign(w, { hour: 0, minute: 0, second: 0, ms: 0 });
    ns = 0;
  }
  if (w.month < 1 || w.month > 12 || w.day < 1 || w.day > 31 || w.hour > 23 || w.minute > 59 || w.second > 60) return null;
  const toEpoch = (x: Wall) => (p.zone !== undefined ? wallToEpoch(x, () => p.zone!) : wallToEpoch(x, (ms) => offsetMinutes(tz, ms)));
  let ms = toEpoch(w);
  // A date that does not exist (Feb 30), or a local time a DST change skips, is invalid, not normalised.
  const back = wallOf(ms, zoneOf(ms));
  if (p.date && (back.day !== w.day || back.month !== w.month)) return null;
  if (p.time && (back.hour !== w.hour || back.minute !== w.minute)) return null;
  let cur = back;
  if (p.weekday && !p.date) {
    const wday = new Date(Date.UTC(cur.year, cur.month - 1, cur.day)).getUTCDay();
    const { day, ordinal } = p.weekday;
    cur = { ...cur, day: cur.day + ((day - wday + 7) % 7) + 7 * (ordinal - (ordinal > 0 && wday !== day ? 1 : 0)) };
    ms = toEpoch(cur);
    cur = wallOf(ms, zoneOf(ms));
  }
  if (p.rel.year || p.rel.month || p.rel.day) {
    ms = toEpoch({ ...cur, year: cur.year + p.rel.year, month: cur.month + p.rel.month, day: cur.day + p.rel.day });
  }
  ms += (p.rel.hour * 3600 + p.rel.minute * 60 + p.rel.second) * 1000;
  return { ms, ns };
}
