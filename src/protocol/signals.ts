/**
 * Signal names as the Sprites wire spells them: `SIGTERM`, `TERM`, `term` and `sigterm` all mean `TERM`.
 * Owns the name normalisation and the Linux signal-number table used for `128 + n` exit codes. It does not
 * deliver signals; engines do (`ExecProcess.signal`).
 * @see docs/wire-reference.md §4.6 (text `signal`), §4.9 (session kill), §9.2 (service signal)
 */

/** Linux (x86-64) signal numbers of the signals spritzer knows, by name without the `SIG` prefix. */
export const SIGNAL_NUMBERS = {
  HUP: 1,
  INT: 2,
  QUIT: 3,
  KILL: 9,
  USR1: 10,
  SEGV: 11,
  USR2: 12,
  PIPE: 13,
  ALRM: 14,
  TERM: 15,
  CHLD: 17,
  CONT: 18,
  STOP: 19,
  TSTP: 20,
  WINCH: 28,
} as const;

/** A known signal name, upper case, without the `SIG` prefix (`TERM`, `KILL`, …). */
export type SignalName = keyof typeof SIGNAL_NUMBERS;

const BY_NUMBER = new Map<number, SignalName>(
  Object.entries(SIGNAL_NUMBERS).map(([name, n]) => [n, name as SignalName]),
);

/**
 * Normalises a signal as a client sends it: any case, with or without the `SIG` prefix, surrounding blanks
 * ignored (`SIGTERM`, `TERM`, `term`, `sigterm` → `'TERM'`). A decimal number from the table (`"9"`) is also
 * accepted, as `kill -9` users type it. Returns `null` for anything else, so callers choose their error
 * (services answer 400, §9.2).
 * @see docs/wire-reference.md §4.6, §9.2 ("with or without SIG prefix, case-insensitive")
 */
export function normalizeSignalName(signal: string): SignalName | null {
  const s = signal.trim().toUpperCase();
  if (/^\d+$/.test(s)) return BY_NUMBER.get(Number(s)) ?? null;
  const bare = s.startsWith('SIG') ? s.slice(3) : s;
  return Object.hasOwn(SIGNAL_NUMBERS, bare) ? (bare as SignalName) : null;
}

/**
 * The signal number of a signal given in any spelling `normalizeSignalName` accepts (`'SIGKILL'` → 9), or
 * `null` when unknown. An exit code after death by this signal is `128 + signalNumber(name)`.
 */
export function signalNumber(signal: string): number | null {
  const name = normalizeSignalName(signal);
  return name === null ? null : SIGNAL_NUMBERS[name];
}
