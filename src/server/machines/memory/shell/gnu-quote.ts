/**
 * How GNU tools quote a name in a message (gnulib's `quote`, locale quoting style): ‘…’ when the locale's charset
 * is UTF-8 (`LC_ALL`, else `LC_MESSAGES`, else `LANG`), '…' in the C locale.
 */

/** `name` quoted for a message under the environment `env`. */
export function localeQuote(env: Map<string, string>, name: string): string {
  const locale = env.get('LC_ALL') || env.get('LC_MESSAGES') || env.get('LANG') || '';
  return /utf-?8/i.test(locale) ? `‘${name}’` : `'${name}'`;
}

/**
 * gnulib argmatch's message for `value` that `option` does not take: the invalid (or, when `ambiguous`, ambiguous)
 * argument and the values it does take, one line per meaning (`groups`: synonyms together, as `‘atime’, ‘access’`).
 * Quoted as `localeQuote` does. Ends without a newline; the caller adds its "Try" line.
 * @see gnulib lib/argmatch.c argmatch_invalid, argmatch_valid
 */
export function argmatchMessage(env: Map<string, string>, value: string, option: string, groups: readonly (readonly string[])[], ambiguous = false): string {
  const lines = groups.map((g) => `  - ${g.map((v) => localeQuote(env, v)).join(', ')}`).join('\n');
  return `${ambiguous ? 'ambiguous' : 'invalid'} argument ${localeQuote(env, value)} for ${localeQuote(env, option)}\nValid arguments are:\n${lines}`;
}

/**
 * The meaning (index into `groups`) of `value` as argmatch reads it: an exact value, or a prefix of values that all
 * mean the same; `invalid` when none, `ambiguous` when a prefix names values of different meanings.
 */
export function argmatch(value: string, groups: readonly (readonly string[])[]): number | 'invalid' | 'ambiguous' {
  const exact = groups.findIndex((g) => g.includes(value));
  if (exact >= 0) return exact;
  const meanings = new Set(groups.flatMap((g, i) => (value !== '' && g.some((v) => v.startsWith(value)) ? [i] : [])));
  if (meanings.size === 0) return 'invalid';
  return meanings.size === 1 ? [...meanings][0]! : 'ambiguous';
}
