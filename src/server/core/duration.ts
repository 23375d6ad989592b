/**
 * Parses the durations clients send in query strings and bodies (service `duration`/`timeout`, session kill
 * `timeout`, task `expire`): Go `time.Duration` strings (`5s`, `1m0s`, `500ms`, `10.0s`, `1.5s`, `0`) and plain
 * seconds (`30`, or the number 10 from a JSON body). It does not apply defaults or limits; callers do.
 * @see docs/wire-reference.md §1 (durations), §9.2, §4.9, §12
 */
import { ModelError } from './errors.ts';

/** Milliseconds per Go duration unit. */
const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  'µs': 1e-3,
  'μs': 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

const GO_DURATION = /^(?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|μs|ms|s|m|h)(?:(?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))*$/;
const SEGMENT = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/g;
const PLAIN_SECONDS = /^(?:\d+(?:\.\d*)?|\.\d+)$/;

/**
 * Parses a duration into milliseconds (possibly fractional for sub-millisecond units; `'1ns'` → 0.000001).
 * Accepts a Go duration string, a bare decimal string or a finite number (both meaning seconds), and `'0'`.
 * Surrounding blanks are ignored; a leading `+` is allowed.
 * @throws ModelError `invalid` for anything else, including negative durations, `''`, unknown units (`'5d'`) and a missing unit after a non-number.
 * @see docs/wire-reference.md §1 ("Go-style duration strings (`5s`, `30s`, `1m0s`, `10.0s`, `0`)")
 * @deviation Go rejects a bare number other than `0`; spritzer reads it as seconds, because the Python SDK and
 *   the tasks API send integer seconds.
 */
export function parseDuration(value: string | number): number {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) throw invalid(value);
    return value * 1000;
  }
  if (typeof value !== 'string') throw invalid(value);
  const s = value.trim().replace(/^\+/, '');
  if (PLAIN_SECONDS.test(s)) return Number(s) * 1000;
  if (!GO_DURATION.test(s)) throw invalid(value);
  let ms = 0;
  for (const [, num, unit] of s.matchAll(SEGMENT)) ms += Number(num) * UNIT_MS[unit];
  return ms;
}

function invalid(value: unknown): ModelError {
  return new ModelError('invalid', `invalid duration: ${JSON.stringify(value)}`);
}
