/**
 * File times with Linux's nanoseconds. just-bash's `FsStat.mtime` is a `Date` (milliseconds); a file's time here
 * carries the nanoseconds past that millisecond beside it, as the `Date`'s own property `subMsNs` (the interpreter's
 * `-nt`/`-ot` read it: patches/just-bash/test-file-time-nanoseconds), so a command that
 * passes a stat's `mtime` on (`touch -r`, `cp -p`, `cp -a`, `tar`) keeps all nine digits, and one that prints it
 * (`stat -c %.9Y`, `date -r f +%N`, `find -printf %T@`, `ls --full-time`) shows them.
 * A `Date` without them is a time of whole milliseconds (an archive's, a parsed date's).
 * @see https://man7.org/linux/man-pages/man2/utimensat.2.html, GNU coreutils "File timestamps"
 */

const NS_PER_MS = 1_000_000n;
/** A `Date` with the nanoseconds past its millisecond. */
type FileDate = Date & { subMsNs?: number };

/** A file time: epoch ms `ms` and `subMs` nanoseconds past it (0–999999). */
export function fileTime(ms: number, subMs = 0): Date {
  const d: FileDate = new Date(ms);
  if (subMs) Object.defineProperty(d, 'subMsNs', { value: subMs });
  return d;
}

/**
 * The access time of a stat (`stat -c %x`, `ls -u`, `find -atime`): the sprite's filesystem puts it beside `mtime`
 * as `atime` (bash-fs.ts); a stat without one (a synthetic file's) was last read when it was last written.
 */
export function accessTime(st: { mtime: Date }): Date {
  return (st as { atime?: Date }).atime ?? st.mtime;
}

/** The nanoseconds past the millisecond that `d` carries (0 for a plain `Date`). */
export function subMsNanos(d: Date): number {
  return (d as FileDate).subMsNs ?? 0;
}

/** `d` as epoch nanoseconds. */
export function epochNanos(d: Date): bigint {
  return BigInt(d.getTime()) * NS_PER_MS + BigInt(subMsNanos(d));
}

/** The file time of epoch nanoseconds `ns` (any sign). */
export function fromEpochNanos(ns: bigint): Date {
  const ms = ns >= 0n ? ns / NS_PER_MS : -((-ns + NS_PER_MS - 1n) / NS_PER_MS);
  return fileTime(Number(ms), Number(ns - ms * NS_PER_MS));
}

/** Orders two file times to the nanosecond (`-nt`, `find -newer`, `ls -t`): negative, zero or positive. */
export function compareTimes(a: Date, b: Date): number {
  const d = epochNanos(a) - epochNanos(b);
  return d < 0n ? -1 : d > 0n ? 1 : 0;
}

/** Whole seconds of `d` (floored, as `time_t`) and the nanoseconds past them (0–999999999). */
export function secondsAndNanos(d: Date): { seconds: number; nanos: number } {
  const ns = epochNanos(d);
  const s = ns >= 0n ? ns / 1_000_000_000n : -((-ns + 999_999_999n) / 1_000_000_000n);
  return { seconds: Number(s), nanos: Number(ns - s * 1_000_000_000n) };
}

/** The nine digits of `%N` for `d`. */
export function nanosText(d: Date): string {
  return String(secondsAndNanos(d).nanos).padStart(9, '0');
}

/**
 * Epoch seconds of `d` with `digits` decimals, truncated, as GNU stat's `%.9Y` and find's `%T@` print them: a time
 * before the epoch reads as its signed value (`-1.250000000` for 1.25 s before), not as floor and fraction.
 */
export function secondsText(d: Date, digits: number): string {
  const ns = epochNanos(d);
  const neg = ns < 0n;
  const abs = neg ? -ns : ns;
  const whole = abs / 1_000_000_000n;
  const frac = String(abs % 1_000_000_000n).padStart(9, '0');
  const tail = digits > 0 ? `.${digits <= 9 ? frac.slice(0, digits) : frac.padEnd(digits, '0')}` : '';
  return `${neg ? '-' : ''}${whole}${tail}`;
}

/**
 * The nanoseconds a time the engine's clock stamped shows past its millisecond: a fixed scramble of the millisecond,
 * so such a time has nine plausible digits (real kernels stamp with nanoseconds), reads the same each time, and two
 * stamps of one millisecond stay equal (as two of one kernel tick do).
 */
export function clockSubMs(ms: number): number {
  const lo = ms % 4294967296 | 0;
  return (Math.imul(lo ^ (lo >>> 15), 0x2c1b3c6d) >>> 0) % 1_000_000;
}

/** The file time the clock stamps at epoch ms `ms` (`touch f`, a new file). */
export function clockTime(ms: number): Date {
  return fileTime(ms, clockSubMs(ms));
}
