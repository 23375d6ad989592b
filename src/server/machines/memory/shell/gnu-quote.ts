/**
 * How GNU tools quote a name in a message (gnulib's `quote`, locale quoting style): ‘…’ when the locale's charset
 * is UTF-8 (`LC_ALL`, else `LC_MESSAGES`, else `LANG`), '…' in the C locale.
 */

/** `name` quoted for a message under the environment `env`. */
export function localeQuote(env: Map<string, string>, name: string): string {
  const locale = env.get('LC_ALL') || env.get('LC_MESSAGES') || env.get('LANG') || '';
  return /utf-?8/i.test(locale) ? `‘${name}’` : `'${name}'`;
}
