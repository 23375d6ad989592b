/**
 * How GNU `ls` writes a file name in each `--quoting-style` (C locale, output not a terminal, so `literal` is the
 * default): `-b` escapes, `-Q` C strings, `shell` quotes only names a shell would split. Pure string functions.
 * @see https://www.gnu.org/software/coreutils/manual/html_node/Formatting-the-file-names.html (gnulib quotearg.c)
 */

/** The quoting styles of `ls --quoting-style`. */
export const QUOTING_STYLES = ['literal', 'shell', 'shell-always', 'shell-escape', 'shell-escape-always', 'c', 'c-maybe', 'escape', 'locale', 'clocale'] as const;
export type QuotingStyle = (typeof QUOTING_STYLES)[number];

const C_ESCAPES: Record<string, string> = { '\x07': 'a', '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't', '\v': 'v', '\\': '\\' };
/** Characters a shell treats specially anywhere in a word (`#` and `~` only at its start). */
const SHELL_SPECIAL = new Set([...' \t\n!"$&\'()*;<=>?[\\^`|']);
const isControl = (c: string) => c < ' ' || c === '\x7f';

/** `c` as a C escape: `\n`, `\\`, or three octal digits for another control byte; null when printable. */
function cEscape(c: string): string | null {
  if (C_ESCAPES[c]) return `\\${C_ESCAPES[c]}`;
  if (isControl(c)) return `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`;
  return null;
}

/** The name backslash-escaped, inside `quote` marks when given; `also` lists more characters to escape. */
function escaped(name: string, quote: string, also: string): string {
  let out = '';
  for (const c of name) out += cEscape(c) ?? (c === quote || also.includes(c) ? `\\${c}` : c);
  return `${quote}${out}${quote}`;
}

/** Whether a shell would read `name` as more or other than one literal word. */
function shellNeedsQuotes(name: string): boolean {
  if (name === '' || name[0] === '#' || name[0] === '~') return true;
  return [...name].some((c) => SHELL_SPECIAL.has(c));
}

/** `name` in single quotes (or double quotes when it holds `'` and nothing special inside double quotes). */
function shellQuoted(name: string): string {
  if (name.includes("'") && !/[\\"$`!]/.test(name)) return `"${name}"`;
  return `'${name.replace(/'/g, "'\\''")}'`;
}

/** `shell-escape`: printable runs quoted as for `shell`, control bytes as `$'\n'`. */
function shellEscaped(name: string, always: boolean): string {
  if (![...name].some(isControl)) return always || shellNeedsQuotes(name) ? shellQuoted(name) : name;
  const parts = name.match(/[\x00-\x1f\x7f]+|[^\x00-\x1f\x7f]+/g) ?? [];
  return parts.map((p) => (isControl(p[0]!) ? `$'${[...p].map((c) => cEscape(c)!).join('')}'` : shellQuoted(p))).join('');
}

/**
 * `name` as `ls` prints it in `style`; `indicators` are the type indicator characters in use (`-F`), which the
 * backslash styles escape in a name so they stay unambiguous.
 */
export function quoteName(name: string, style: QuotingStyle, indicators = ''): string {
  switch (style) {
    case 'literal':
      return name;
    case 'escape':
      return escaped(name, '', ` ${indicators}`);
    case 'c':
      return escaped(name, '"', indicators);
    case 'c-maybe':
      return /[\x00-\x1f\x7f"\\]/.test(name) ? escaped(name, '"', indicators) : name;
    case 'locale':
      return escaped(name, "'", indicators);
    case 'clocale':
      return escaped(name, '"', indicators);
    case 'shell':
    case 'shell-always':
      return style === 'shell-always' || shellNeedsQuotes(name) ? shellQuoted(name) : name;
    case 'shell-escape':
    case 'shell-escape-always':
      return shellEscaped(name, style === 'shell-escape-always');
  }
}

/** `-q`: each control byte of `name` shown as `?`. */
export function hideControlChars(name: string): string {
  return name.replace(/[\x00-\x1f\x7f]/g, '?');
}
