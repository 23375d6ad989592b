/**
 * A reader of sed scripts that walks the commands the way GNU sed 4.x parses them (compile.c), for the `sed` wrapper
 * (sed-command.ts): it refuses a script GNU refuses (an unterminated `s` or
 * `y`, a letter that is no command, an unknown or repeated `s` flag, a malformed regex, a missing label or file name,
 * extra characters after a command, an address a command does not take, …) with GNU's message and position, where
 * just-bash would run what it got or word it otherwise. It does not run scripts.
 * @see https://www.gnu.org/software/sed/manual/sed.html#Commands-Requiring-a-newline
 */
import { sedRegexCheck } from './grep-regex.ts';

/**
 * The script to hand just-bash with the letters of its commands in order, or GNU's error for it (`unterminated `s'
 * command`, with its position). `emptyTextAtEnd`: the script ends in `a\` or `i\` with no text after it, which
 * GNU reads as text continued by the next `-e`, or, in the last one, as empty text (`$a\` ends the output in a newline).
 */
export type SedScript = { script: string; letters: string; emptyTextAtEnd?: boolean } | { error: string };

/**
 * What the scripts of one `sed` run share while they are read: the `{` left open (a block may span `-e`s), the
 * labels defined and the ones jumped to (GNU checks them once all are read: {@link missingLabel}).
 */
export interface SedProgram {
  depth: number;
  labels: Set<string>;
  jumps: string[];
}

/** A fresh {@link SedProgram}. */
export const sedProgram = (): SedProgram => ({ depth: 0, labels: new Set(), jumps: [] });

/** GNU's message for a jump to a label no script defines (a `panic`: exit 4), or undefined. */
export function missingLabel(prog: SedProgram): string | undefined {
  const lost = prog.jumps.find((l) => !prog.labels.has(l));
  return lost === undefined ? undefined : `sed: can't find label for jump to \`${lost}'\n`;
}

const SPACE = /[ \t]/;
/** The letters GNU sed 4.x takes as commands. */
const COMMANDS = '=abcdDeFgGhHilnNpPqQrRstTvwWxyz#:{}';
/** Commands that take no argument: after them only blanks, then `;`, a newline, `}`, `#` or the end. */
const BARE = '=dDFgGhHnNpPxz}';

class Refused extends Error {
  constructor(
    readonly at: number,
    readonly why: string,
  ) {
    super(why);
  }
}

/**
 * `script` with every one-line `a\text`/`i\text`/`c\text` made `a\<newline>text`, or GNU's error when the script
 * does not compile, located as GNU does: `-e expression #N, char C` (`n`), or `file F line L` (`opts.file`).
 * `textFirst`: the script's first line is text the expression before it (`-e 'a\'`) continues. `listWidth`
 * (`sed -l N`): the width an `l` command without its own gets. `extended`: `-E`/`-r` regexes. `program`: what the
 * run's scripts share (open blocks, labels), updated.
 */
export function normalizeSedScript(script: string, n: number, opts: { textFirst?: boolean; listWidth?: number; extended?: boolean; file?: string; fileNewline?: boolean; program?: SedProgram } = {}): SedScript {
  const { textFirst = false, listWidth, extended = false, file, fileNewline = false, program = sedProgram() } = opts;
  const s = script;
  let out = '';
  let from = 0;
  let i = 0;
  let letters = '';
  let emptyTextAtEnd = false;
  // A script file's line counts the newlines GNU has read, its final one (which the caller took off) included.
  const where = (at: number) => (file !== undefined ? `file ${file} line ${1 + (s.slice(0, at).match(/\n/g)?.length ?? 0) + (at > s.length ? 1 : 0)}` : `-e expression #${n}, char ${at}`);
  const refuse = (at: number, why: string): never => {
    throw new Refused(at, why);
  };
  /**
   * Index just past the text that ends at the first `delim` not escaped by a backslash, or -1. In a regex
   * (`brackets`) a bracket expression is read whole: `s/[/]/x/` has the regex `[/]`, and `s/[a/x/` is unterminated.
   */
  const until = (at: number, delim: string, brackets = false): number => {
    for (let j = at; j < s.length; j++) {
      if (brackets && s[j] === '[') {
        let k = j + 1;
        if (s[k] === '^') k++;
        if (s[k] === ']') k++;
        for (; k < s.length && s[k] !== ']' && s[k] !== '\n'; k++) {
          const close = s[k] === '[' && /[:=.]/.test(s[k + 1] ?? '') ? s.indexOf(`${s[k + 1]}]`, k + 2) : -1;
          if (close > 0) k = close + 1;
        }
        if (k >= s.length || s[k] === '\n') return -1;
        j = k;
      } else if (s[j] === '\\') j++;
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
  const blanks = () => {
    while (SPACE.test(s[i] ?? '')) i++;
  };
  /** A regex between delimiters as the regex engine gets it: `\<delim>` is the delimiter itself. */
  const regexText = (body: string, delim: string) => (delim === '\\' ? body : body.replace(new RegExp(`\\\\(\\\\|\\${delim})`, 'g'), (all, c: string) => (c === delim ? c : all)));
  /** Refuses a regex GNU's regcomp would, at `at` (GNU compiles it once the command around it is read). */
  const checkRegex = (body: string, delim: string, at: number): number => {
    if (body === '') return Infinity;
    const r = sedRegexCheck(regexText(body, delim), extended);
    if (r.error) refuse(at, r.error);
    return r.groups;
  };
  /** Reads an address at `i`: its kind, and the regex to check once its flags are read. */
  const address = (): 'none' | 'zero' | 'line' | 'regex' | 'step' => {
    if (s[i] === '$') {
      i++;
      return 'line';
    }
    if (/[0-9]/.test(s[i] ?? '')) {
      const digits = /^[0-9]+/.exec(s.slice(i))![0];
      i += digits.length;
      if (s[i] === '~') {
        i++;
        while (/[0-9]/.test(s[i] ?? '')) i++;
        return 'step';
      }
      return Number(digits) === 0 ? 'zero' : 'line';
    }
    if (s[i] === '/' || s[i] === '\\') {
      const delim = s[i] === '\\' ? s[++i]! : '/';
      const end = until(i + 1, delim, true);
      if (end < 0) refuse(s.length, 'unterminated address regex');
      const body = s.slice(i + 1, end - 1);
      i = end;
      while (s[i] === 'I' || s[i] === 'M') i++;
      checkRegex(body, delim ?? '/', i);
      return 'regex';
    }
    if (s[i] === '+' || s[i] === '~') {
      i++;
      while (/[0-9]/.test(s[i] ?? '')) i++;
      return 'step';
    }
    return 'none';
  };
  /** After a command that takes no more: blanks, then the end, `;`, a newline, `}` or `#`. */
  const endOfCommand = () => {
    blanks();
    if (i < s.length && !/[;\n}#]/.test(s[i]!)) refuse(i + 1, 'extra characters after command');
    if (s[i] === ';') i++;
  };
  /** A label or file name: to the end of the line (labels and `v` also to a `;`). */
  const argument = (semicolon: boolean): string => {
    blanks();
    let end = lineEnd(i);
    if (semicolon) {
      const semi = s.indexOf(';', i);
      if (semi >= 0 && semi < end) end = semi;
    }
    const text = s.slice(i, end);
    i = end;
    return text;
  };
  try {
    if (textFirst) i = lineEnd(0);
    while (i < s.length) {
      while (i < s.length && /[\s;]/.test(s[i]!)) i++;
      if (i >= s.length) break;
      const first = address();
      let second: ReturnType<typeof address> = 'none';
      blanks();
      if (first !== 'none' && s[i] === ',') {
        i++;
        blanks();
        second = address();
        if (second === 'none') refuse(Math.min(i + 1, s.length), "unexpected `,'");
      }
      const addresses = first === 'none' ? 0 : second === 'none' ? 1 : 2;
      blanks();
      if (s[i] === '!') {
        i++;
        blanks();
        if (s[i] === '!') refuse(i + 1, "multiple `!'s");
      }
      const c = s[i++];
      if (c === undefined || (addresses > 0 && (c === ';' || c === '\n'))) refuse(Math.min(i, s.length), 'missing command');
      const at = i;
      // GNU's message for a letter that is no command, at its char position (compile.c, UNKNOWN_CMD).
      if (!COMMANDS.includes(c!)) refuse(at, `unknown command: \`${c}'`);
      if (first === 'zero' && second !== 'regex') refuse(at, 'invalid usage of line address 0');
      letters += c;
      if (c === '#') {
        if (addresses > 0) refuse(at, "comments don't accept any addresses");
        i = lineEnd(i);
      } else if (c === ':') {
        if (addresses > 0) refuse(at, ": doesn't want any addresses");
        const label = argument(true);
        if (label === '') refuse(Math.min(i, s.length), '":" lacks a label');
        program.labels.add(label.trimEnd());
      } else if (c === 'b' || c === 't' || c === 'T') {
        const label = argument(true).trimEnd();
        if (label !== '') program.jumps.push(label);
      } else if (c === 'v') {
        const version = argument(true).trim();
        if (version !== '' && version.localeCompare('4.9', 'en', { numeric: true }) > 0) refuse(i, 'expected newer version of sed');
      } else if (c === '{') program.depth++;
      else if (c === '}') {
        if (program.depth === 0) refuse(at, "unexpected `}'");
        program.depth--;
        endOfCommand();
      } else if (c === 'a' || c === 'i' || c === 'c') {
        let j = i;
        while (SPACE.test(s[j] ?? '')) j++;
        if (j >= s.length) refuse(at, "expected \\ after `a', `c' or `i'");
        if (s[j] === '\\' && j + 1 === s.length && c !== 'c') emptyTextAtEnd = true;
        i = lineEnd(j);
      } else if (c === 's' || c === 'y') {
        const delim = s[i];
        if (delim === undefined || delim === '\n' || delim === '\\') refuse(s.length, `unterminated \`${c}' command`);
        const mid = until(i + 1, delim!, c === 's');
        const end = mid < 0 ? -1 : until(mid, delim!);
        if (end < 0) refuse(s.length, `unterminated \`${c}' command`);
        const left = s.slice(i + 1, mid - 1);
        const right = s.slice(mid, end - 1);
        i = end;
        if (c === 'y') {
          const chars = (t: string) => [...regexText(t, delim!).replace(/\\(.)/gs, '$1')].length;
          if (chars(left) !== chars(right)) refuse(i, "strings for `y' command are different lengths");
          endOfCommand();
        } else {
          let g = false;
          let p = false;
          let number = false;
          for (;;) {
            const f = s[i];
            if (f === undefined || f === '\n' || f === ';' || f === '}' || f === '#') break;
            i++;
            if (f === 'g') {
              if (g) refuse(i, "multiple `g' options to `s' command");
              g = true;
            } else if (f === 'p') {
              if (p) refuse(i, "multiple `p' options to `s' command");
              p = true;
            } else if (/[0-9]/.test(f)) {
              if (number) refuse(i, "multiple number options to `s' command");
              const digits = /^[0-9]*/.exec(s.slice(i))![0];
              i += digits.length;
              if (Number(f + digits) === 0) refuse(i, "number option to `s' command may not be zero");
              number = true;
            } else if (f === 'w') {
              if (argument(false) === '') refuse(i, 'missing filename in r/R/w/W commands');
              break;
            } else if (!/[iImMe \t]/.test(f)) refuse(i, "unknown option to `s'");
          }
          // GNU compiles the regex once it has read the flags and the `;` or newline after them.
          const after = s[i] === ';' || s[i] === '\n' || (i === s.length && fileNewline) ? i + 1 : i;
          const groups = checkRegex(left, delim!, after);
          const refs = [...right.matchAll(/\\(.)/gs)].map((m) => m[1]!).filter((d) => /[1-9]/.test(d));
          for (const d of refs) if (Number(d) > groups) refuse(after, `invalid reference \\${d} on \`s' command's RHS`);
          if (s[i] === ';') i++;
        }
      } else if (c === 'l' || c === 'L' || c === 'q' || c === 'Q') {
        if ((c === 'q' || c === 'Q') && addresses > 1) refuse(at, 'command only uses one address');
        // An optional number follows (`l`'s width, `q`'s exit status): not an address of a next command.
        let j = i;
        while (SPACE.test(s[j] ?? '')) j++;
        const digits = /^[0-9]*/.exec(s.slice(j))![0];
        if (c === 'l' && listWidth !== undefined && digits === '') {
          out += `${s.slice(from, i)} ${listWidth}`;
          from = i;
        }
        i = j + digits.length;
        endOfCommand();
      } else if ('rRwW'.includes(c!)) {
        if (argument(false) === '') refuse(Math.min(i, s.length), 'missing filename in r/R/w/W commands');
      } else if (c === 'e') i = lineEnd(i);
      else if (BARE.includes(c!)) endOfCommand();
    }
  } catch (err) {
    if (err instanceof Refused) return { error: `sed: ${where(err.at)}: ${err.why}\n` };
    throw err;
  }
  return { script: out + s.slice(from), letters, ...(emptyTextAtEnd ? { emptyTextAtEnd } : {}) };
}
