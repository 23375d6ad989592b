/**
 * The character type (LC_CTYPE) a program runs in, as setlocale(3) picks it from the environment: `LC_ALL`, else
 * `LC_CTYPE`, else `LANG`. The sprite's locales are C.UTF-8 (its default, with none of them set) and C/POSIX, where
 * every byte is one character and bytes above 0x7f are no letters and print nothing.
 * @see POSIX "Locale" (LC_CTYPE), locale(7)
 */

/** Whether `env` selects the C (or POSIX) locale's character type: a character is a byte. */
export function isByteLocale(env: ReadonlyMap<string, string>): boolean {
  const name = env.get('LC_ALL') || env.get('LC_CTYPE') || env.get('LANG') || '';
  return name === 'C' || name === 'POSIX';
}
