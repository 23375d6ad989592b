/**
 * A reader of sed scripts that walks the commands the way GNU sed 4.x parses them, for the `sed` wrapper
 * (sed-command.ts): it rewrites GNU's one-line `a\text`, `i\text`, `c\text` (text on the command's own line after
 * the backslash) into the two-line form just-bash reads, and reports an unterminated `s` or `y` command and a letter
 * that is no command with GNU's messages where just-bash would run what it got or word it otherwise. It does not
 * run scripts.
 * @see https://www.gnu.org/software/sed/manual/sed.html#Commands-Requiring-a-newline
 */

/**
 * The script to hand just-bash with the letters of its commands in order, or GNU's error for it (`unterminated `s'
 * command`, with its char position). `emptyTextAtEnd`: the script ends in `a\` or `i\` with no text after it, which
 * GNU reads as text continued by the next `-e`, or, in the last one, as empty text (`$a\` ends the output in a newline).
 */
export type SedScript = { script: string; letters: string; emptyTextAtEnd?: boolean } | { error: string };

const SPACE = /[ \t]/;
/** The letters GNU sed 4.x takes as commands. */
const COMMANDS = '=abcdDeFgGhHilnNpPqQrRstTvwWxyz#:{}';

/**
 * `script` (expression number `n`, for the error text) with every one-line `a\text`/`i\text`/`c\text` made
 * `a\<newline>text`, or GNU's error when an `s` or `y` command is not terminated or a letter is no command.
 * `textFirst`: the script's first line is text the expression before it (`-e 'a\'`) continues. `listWidth`
 * (`sed -l N`): the width an `l` command without its own gets.
 */
export function normalizeSedScript(script: string, n: number, opts: { textFirst?: boolean; listWidth?: number } = {}): SedScript {
  const { textFirst = false, listWidth } = opts;
  const s = script;
  let out = '';
  let from = 0;
  let i = 0;
  let letters = '';
  let emptyTextAtEnd = false;
  const fail = (cmd: string): SedScript => ({ error: `sed: -e expression #${n}, char ${s.length}: unterminated \`${cmd}' command\n` });
  /** Index just past the text that ends at the first `delim` not escaped by a backslash, or -1. */
  const until = (at: number, delim: string): number => {
    for (let j = at; j < s.length; j++) {
      if (s[j] === '\\') j++;
      else if (s[j] === delim) return j + 1;
      else if (s[j] === '\n' && delim !== '\n') return -1;
    }
    return -1;
  };
  const lineEnd = (at: number): number => {
    for (let j = at; j < s.length; j++) {
      if (s[j] === '\\') j++;
      else if (s[j] === '\n') return j;
    }
    return s.length;
  };
  const address = () => {
    if (s[i] === '$') i++;
    else if (/[0-9]/.test(s[i] ?? '')) {
      while (/[0-9~]/.test(s[i] ?? '')) i++;
    } else if (s[i] === '/' || s[i] === '\\') {
      const delim = s[i] === '\\' ? s[++i]! : '/';
      const end = until(i + 1, delim);
      i = end < 0 ? s.length : end;
      while (s[i] === 'I' || s[i] === 'M') i++;
    } else if (s[i] === '+' || s[i] === '~') {
      i++;
      while (/[0-9]/.test(s[i] ?? '')) i++;
    }
  };
  if (textFirst) i = lineEnd(0);
  while (i < s.length) {
    while (i < s.length && /[\s;}{]/.test(s[i]!)) i++;
    if (i >= s.length) break;
    address();
    while (SPACE.test(s[i] ?? '')) i++;
    if (s[i] === ',') {
      i++;
      while (SPACE.test(s[i] ?? '')) i++;
      address();
    }
    while (SPACE.test(s[i] ?? '') || s[i] === '!') i++;
    const c = s[i++];
    if (c === undefined) break;
    // GNU's message for a letter that is no command, at its char position (compile.c, UNKNOWN_CMD).
    if (!COMMANDS.includes(c)) return { error: `sed: -e expression #${n}, char ${i}: unknown command: \`${c}'\n` };
    letters += c;
    if (c === 'a' || c === 'i' || c === 'c') {
      let j = i;
      while (SPACE.test(s[j] ?? '')) j++;
      if (s[j] === '\\' && j + 1 === s.length && c !== 'c') emptyTextAtEnd = true;
      if (s[j] === '\\' && j + 1 < s.length && s[j + 1] !== '\n') {
        out += `${s.slice(from, j + 1)}\n`;
        from = j + 1;
      }
      i = lineEnd(j);
    } else if (c === 's' || c === 'y') {
      const delim = s[i];
      if (delim === undefined || delim === '\n' || delim === '\\') return fail(c);
      const mid = until(i + 1, delim);
      const end = mid < 0 ? -1 : until(mid, delim);
      if (end < 0) return fail(c);
      i = end;
      if (c === 's') {
        while (i < s.length && /[gpiImMe0-9]/.test(s[i]!)) i++;
        if (s[i] === 'w') i = lineEnd(i);
      }
    } else if (c === 'l' || c === 'L' || c === 'q' || c === 'Q') {
      // An optional number follows (`l`'s width, `q`'s exit status): not an address of a next command.
      let j = i;
      while (SPACE.test(s[j] ?? '')) j++;
      const digits = /^[0-9]*/.exec(s.slice(j))![0];
      if (c === 'l' && listWidth !== undefined && digits === '') {
        out += `${s.slice(from, i)} ${listWidth}`;
        from = i;
      }
      i = j + digits.length;
    } else if ('#:btTrRwWe'.includes(c)) {
      const end = lineEnd(i);
      const semi = 'btT'.includes(c) ? s.indexOf(';', i) : -1;
      i = semi >= 0 && semi < end ? semi : end;
    }
  }
  return { script: out + s.slice(from), letters, ...(emptyTextAtEnd ? { emptyTextAtEnd } : {}) };
}
