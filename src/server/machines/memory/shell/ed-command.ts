/**
 * `ed` as GNU ed 1.19 runs a script read from stdin (`printf '2s/a/b/\nw\nq\n' | ed -s f`): addresses (`N`, `.`,
 * `$`, `+N`/`-N`, `/RE/`, `?RE?`, `'x`, `,`, `;`, offsets after any of them), the commands a, i, c (text up to a
 * lone `.`), d, p, n, l, =, s/RE/REPL/[gpnlN], m, t, j, k, u, g/RE/CMD and v/RE/CMD (one command per line), r, w,
 * W, wq, e, E, f, q, Q, h, H, and a newline alone (the next line). REs are POSIX BREs (EREs with -E), as grep reads
 * them. An error prints `?` on stdout (with -v or after H, its message) and the script goes on; ed exits 1 after
 * any, and 2 when the script ends with the buffer modified since it was written (after `?`); `q` on such a buffer
 * warns once. Without -s, reading and writing a file print its byte count. `!command` is refused loudly.
 * @see https://www.gnu.org/software/ed/manual/ed_manual.html
 */
import { defineCommand, latin1FromBytes, type CustomCommand, type ExecResult, type IFileSystem } from 'just-bash';
import { compileGrep } from './grep-regex.ts';
import { matchAllLongest } from './posix-match.ts';
import { unsupported } from './gnu-commands.ts';
import { SANDBOX_HINT } from './world.ts';
import type { InputCtx } from './text-input.ts';

/** A buffer line; an object, so `g` can find the lines it marked after others moved. */
interface Line {
  t: string;
}

class EdError extends Error {}

interface State {
  lines: Line[];
  cur: number;
  file: string | undefined;
  modified: boolean;
  quiet: boolean;
  extended: boolean;
  verbose: boolean;
  /** The message of the last error, for `h` and `H`. */
  lastError: string | undefined;
  marks: Map<string, Line>;
  lastRe: RegExp | undefined;
  lastRepl: string | undefined;
  undo: { lines: Line[]; cur: number } | undefined;
  out: string;
  err: string;
  fs: IFileSystem;
  cwd: string;
}

/** A JS regex for ed's RE `src` (empty: the last one used), as a global matcher. */
function regex(st: State, src: string): RegExp {
  if (src === '') {
    if (!st.lastRe) throw new EdError('No previous pattern');
    return st.lastRe;
  }
  const c = compileGrep([src], st.extended ? 'extended' : 'basic', { ignoreCase: false, word: false, line: false });
  if ('error' in c) throw new EdError(c.error.replace(/^grep: /, ''));
  st.lastRe = c.regex;
  return c.regex;
}

/** The text of `cmd` from `i` up to an unescaped `delim` (the delimiter escaped there reads as itself). */
function delimited(cmd: string, i: number, delim: string): { text: string; end: number; closed: boolean } {
  let text = '';
  for (; i < cmd.length; i++) {
    const ch = cmd[i]!;
    if (ch === '\\' && i + 1 < cmd.length) {
      text += cmd[i + 1] === delim ? delim : ch + cmd[i + 1];
      i++;
    } else if (ch === delim) return { text, end: i + 1, closed: true };
    else text += ch;
  }
  return { text, end: i, closed: false };
}

const test = (re: RegExp, s: string) => ((re.lastIndex = 0), re.test(s));

/** One address at `cmd[i]` (a base and its offsets), or null when none is there. */
function address(st: State, cmd: string, i: number): { n: number; end: number } | null {
  let n: number | null = null;
  const ch = cmd[i];
  if (ch === '.') (n = st.cur), i++;
  else if (ch === '$') (n = st.lines.length), i++;
  else if (ch !== undefined && /[0-9]/.test(ch)) {
    const m = /^[0-9]+/.exec(cmd.slice(i))!;
    (n = Number(m[0])), (i += m[0].length);
  } else if (ch === '/' || ch === '?') {
    const d = delimited(cmd, i + 1, ch);
    const re = regex(st, d.text);
    i = d.end;
    const len = st.lines.length;
    n = null;
    for (let k = 1; k <= len; k++) {
      const at = ch === '/' ? ((st.cur + k - 1) % len) + 1 : ((st.cur - k + len * 2 - 1) % len) + 1;
      if (test(re, st.lines[at - 1]!.t)) {
        n = at;
        break;
      }
    }
    if (n === null) throw new EdError('No match');
  } else if (ch === "'") {
    const line = st.marks.get(cmd[i + 1] ?? '');
    const at = line ? st.lines.indexOf(line) : -1;
    if (at < 0) throw new EdError('Invalid address');
    (n = at + 1), (i += 2);
  }
  // Offsets: `+N`, `-N`, `+`, `-`, `^`, or a bare number after a base (`$ -2`, `/x/ 1`).
  for (;;) {
    while (cmd[i] === ' ' || cmd[i] === '\t') i++;
    const op = cmd[i];
    if (op === '+' || op === '-' || op === '^') {
      const m = /^[0-9]+/.exec(cmd.slice(i + 1));
      const by = m ? Number(m[0]) : 1;
      n = (n ?? st.cur) + (op === '+' ? by : -by);
      i += 1 + (m ? m[0].length : 0);
    } else if (n !== null && op !== undefined && /[0-9]/.test(op)) {
      const m = /^[0-9]+/.exec(cmd.slice(i))!;
      (n += Number(m[0])), (i += m[0].length);
    } else break;
  }
  return n === null ? null : { n, end: i };
}

/** The addresses before a command: how many were given, the range, and where the command letter sits. */
function addresses(st: State, cmd: string): { count: number; a: number; b: number; end: number } {
  let i = 0;
  let count = 0;
  let a = st.cur;
  let b = st.cur;
  for (;;) {
    while (cmd[i] === ' ' || cmd[i] === '\t') i++;
    const one = address(st, cmd, i);
    if (one) (i = one.end), (a = b), (b = one.n), count++;
    const sep = cmd[i];
    if (sep !== ',' && sep !== ';') break;
    i++;
    if (!one) {
      // `,` alone is 1,$ and `;` alone .,$; a following address replaces the second.
      (a = sep === ',' ? 1 : st.cur), (b = st.lines.length), (count = 2);
      const next = address(st, cmd, i);
      if (next) (b = next.n), (i = next.end);
      if (sep === ';') st.cur = a;
      if (cmd[i] !== ',' && cmd[i] !== ';') break;
      continue;
    }
    if (sep === ';') st.cur = one.n;
    a = b;
  }
  if (count === 1) a = b;
  for (const n of count === 0 ? [] : [a, b]) if (n < 0 || n > st.lines.length) throw new EdError('Invalid address');
  if (count > 0 && a > b) throw new EdError('Invalid address');
  return { count, a, b, end: i };
}

/** `l`'s view of a line: escapes for backslash and unprintable bytes, `$` at its end. */
const listed = (t: string) =>
  `${t.replace(/[\\\x00-\x1f\x7f]/g, (c) => ({ '\\': '\\\\', '\t': '\\t', '\b': '\\b', '\f': '\\f', '\r': '\\r', '\v': '\\v', '\x07': '\\a' })[c] ?? `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`)}$`;

function print(st: State, a: number, b: number, how: string): void {
  if (a < 1) throw new EdError('Invalid address');
  for (let k = a; k <= b; k++) {
    const t = st.lines[k - 1]!.t;
    st.out += how === 'n' ? `${k}\t${t}\n` : how === 'l' ? `${listed(t)}\n` : `${t}\n`;
  }
  st.cur = b;
}

/** The file's lines, or the error ed gives when it cannot read it (its message on stderr). */
async function readLines(st: State, name: string): Promise<{ lines: Line[]; bytes: number }> {
  let text: string;
  try {
    text = Buffer.from(await st.fs.readFileBuffer(st.fs.resolvePath(st.cwd, name))).toString('latin1');
  } catch {
    st.err += `${name}: No such file or directory\n`;
    throw new EdError('Cannot open input file');
  }
  const parts = text.split('\n');
  if (parts[parts.length - 1] === '') parts.pop();
  return { lines: parts.map((t) => ({ t })), bytes: text.length + (text !== '' && !text.endsWith('\n') ? 1 : 0) };
}

/** The replacement for one match: `&` the match, `\N` its groups, `\&` and `\\` themselves. */
function expand(repl: string, m: RegExpExecArray): string {
  return repl.replace(/\\(.)|&/g, (all, esc: string | undefined) => {
    if (esc === undefined) return m[0];
    if (/[1-9]/.test(esc)) return m[Number(esc)] ?? '';
    return esc;
  });
}

function substitute(st: State, cmd: string, i: number, a: number, b: number): { end: number; suffix: string } {
  const delim = cmd[i];
  if (delim === undefined || delim === ' ' || delim === '\n') throw new EdError('Missing pattern delimiter');
  const pat = delimited(cmd, i + 1, delim);
  const rep = delimited(cmd, pat.end, delim);
  const re = regex(st, pat.text);
  let repl = rep.text;
  if (repl === '%') {
    if (st.lastRepl === undefined) throw new EdError('No previous substitution');
    repl = st.lastRepl;
  }
  st.lastRepl = repl;
  let j = rep.end;
  let global = false;
  let nth = 1;
  let suffix = '';
  for (; j < cmd.length; j++) {
    const f = cmd[j]!;
    if (f === 'g') global = true;
    else if (/[0-9]/.test(f)) {
      const m = /^[0-9]+/.exec(cmd.slice(j))!;
      (nth = Number(m[0])), (j += m[0].length - 1);
    } else if ('pnl'.includes(f)) suffix = f;
    else throw new EdError('Invalid command suffix');
  }
  if (a < 1) throw new EdError('Invalid address');
  let last = 0;
  for (let k = a; k <= b; k++) {
    const line = st.lines[k - 1]!;
    let out = '';
    let from = 0;
    let count = 0;
    let changed = false;
    for (const m of matchAllLongest(re, line.t)) {
      count++;
      if (count >= nth && (global || count === nth)) {
        out += line.t.slice(from, m.index) + expand(repl, m);
        from = m.index + m[0].length;
        changed = true;
      }
      if (!global && count >= nth) break;
    }
    if (!changed) continue;
    line.t = out + line.t.slice(from);
    last = k;
  }
  if (last === 0) throw new EdError('No match');
  st.cur = last;
  st.modified = true;
  return { end: cmd.length, suffix };
}

/** The text lines of an a/i/c command, up to a lone `.` (or the end of the script). */
function takeText(input: string[]): Line[] {
  const text: Line[] = [];
  while (input.length > 0) {
    const l = input.shift()!;
    if (l === '.') break;
    text.push({ t: l });
  }
  return text;
}

async function write(st: State, a: number, b: number, name: string, append: boolean): Promise<void> {
  const file = name || st.file;
  if (!file) throw new EdError('No current filename');
  if (!st.file) st.file = file;
  const chosen = st.lines.slice(a - 1, b);
  const text = chosen.map((l) => `${l.t}\n`).join('');
  const abs = st.fs.resolvePath(st.cwd, file);
  if (append) await st.fs.appendFile(abs, Buffer.from(text, 'latin1'));
  else await st.fs.writeFile(abs, Buffer.from(text, 'latin1'));
  if (!st.quiet) st.out += `${text.length}\n`;
  if (a === 1 && b === st.lines.length && !append) st.modified = false;
}

/** Runs one command line; `input` holds the lines after it (a/i/c take their text from there). Returns 'quit' to stop. */
async function run(st: State, cmd: string, input: string[], inGlobal: boolean): Promise<'quit' | undefined> {
  if (cmd === '' && !inGlobal) {
    if (st.cur + 1 > st.lines.length) throw new EdError('Invalid address');
    print(st, st.cur + 1, st.cur + 1, 'p');
    return undefined;
  }
  const ad = addresses(st, cmd);
  let { a, b } = ad;
  let i = ad.end;
  const c = cmd[i] ?? '';
  i++;
  const rest = cmd.slice(i);
  const need = (n: number) => {
    if (n < 1) throw new EdError('Invalid address');
  };
  const snapshot = () => {
    if (!inGlobal) st.undo = { lines: st.lines.map((l) => ({ t: l.t })), cur: st.cur };
  };
  const suffixOnly = (s: string) => {
    if (s !== '' && !/^[pnl]$/.test(s)) throw new EdError('Invalid command suffix');
    return s;
  };
  let suffix = '';
  // A file name follows its command after a blank (`w out`); `foo` is f with a suffix it does not take.
  if ('eEfrwW'.includes(c) && c !== '' && rest !== '' && !/^[ \t]/.test(rest) && !(c === 'w' && rest[0] === 'q')) throw new EdError('Unexpected command suffix');
  switch (c) {
    case '':
      need(b);
      st.cur = b;
      st.out += `${st.lines[b - 1]!.t}\n`;
      return undefined;
    case 'p':
    case 'n':
    case 'l':
      if (ad.count === 0) (a = st.cur), (b = st.cur);
      need(a);
      suffixOnly(rest);
      print(st, a, b, c);
      return undefined;
    case '=':
      st.out += `${ad.count === 0 ? st.lines.length : b}\n`;
      return undefined;
    case 'a':
    case 'i':
    case 'c': {
      suffix = suffixOnly(rest);
      const text = takeText(input);
      snapshot();
      if (c === 'c') {
        need(a);
        st.lines.splice(a - 1, b - a + 1, ...text);
        st.cur = text.length > 0 ? a - 1 + text.length : Math.min(a, st.lines.length);
      } else {
        const at = c === 'a' ? b : Math.max(b - 1, 0);
        st.lines.splice(at, 0, ...text);
        st.cur = text.length > 0 ? at + text.length : at;
      }
      st.modified = true;
      break;
    }
    case 'd':
      need(a);
      suffix = suffixOnly(rest);
      snapshot();
      st.lines.splice(a - 1, b - a + 1);
      st.cur = a <= st.lines.length ? a : st.lines.length;
      st.modified = true;
      break;
    case 'j': {
      if (ad.count < 2) b = a + 1;
      need(a);
      suffix = suffixOnly(rest);
      if (b > st.lines.length) throw new EdError('Invalid address');
      if (a === b) break;
      snapshot();
      const joined = st.lines.slice(a - 1, b).map((l) => l.t).join('');
      st.lines.splice(a - 1, b - a + 1, { t: joined });
      st.cur = a;
      st.modified = true;
      break;
    }
    case 'm':
    case 't': {
      need(a);
      const dest = rest.replace(/^[ \t]+/, '');
      const to = address(st, dest, 0) ?? (dest === '' ? { n: st.cur, end: 0 } : null);
      if (!to) throw new EdError('Invalid destination');
      suffix = suffixOnly(dest.slice(to.end).trim());
      if (to.n < 0 || to.n > st.lines.length) throw new EdError('Invalid destination');
      if (c === 'm' && to.n >= a && to.n < b) throw new EdError('Invalid destination');
      snapshot();
      const chosen = st.lines.slice(a - 1, b);
      if (c === 't') {
        st.lines.splice(to.n, 0, ...chosen.map((l) => ({ t: l.t })));
        st.cur = to.n + chosen.length;
      } else if (to.n !== b && !(to.n === a - 1)) {
        st.lines.splice(a - 1, chosen.length);
        const at = to.n >= b ? to.n - chosen.length : to.n;
        st.lines.splice(at, 0, ...chosen);
        st.cur = at + chosen.length;
      } else st.cur = b;
      st.modified = true;
      break;
    }
    case 's': {
      need(a);
      snapshot();
      try {
        suffix = substitute(st, cmd, i, a, b).suffix;
      } catch (err) {
        // Under g, a line the substitution does not match is no error.
        if (inGlobal && err instanceof EdError && err.message === 'No match') return undefined;
        throw err;
      }
      break;
    }
    case 'k': {
      need(b);
      if (!/^[a-z]$/.test(rest)) throw new EdError('Invalid mark character');
      st.marks.set(rest, st.lines[b - 1]!);
      return undefined;
    }
    case 'u': {
      if (!st.undo) throw new EdError('Nothing to undo');
      const now = { lines: st.lines, cur: st.cur };
      (st.lines = st.undo.lines), (st.cur = st.undo.cur), (st.undo = now), (st.modified = true);
      return undefined;
    }
    case 'g':
    case 'v': {
      if (inGlobal) throw new EdError('Cannot nest global commands');
      if (ad.count === 0) (a = 1), (b = st.lines.length);
      const d = delimited(cmd, i + 1, cmd[i] ?? '/');
      const re = regex(st, d.text);
      const list = cmd.slice(d.end) || 'p';
      const marked = st.lines.slice(Math.max(a - 1, 0), b).filter((l) => test(re, l.t) === (c === 'g'));
      snapshot();
      for (const line of marked) {
        const at = st.lines.indexOf(line);
        if (at < 0) continue;
        st.cur = at + 1;
        if ((await run(st, list, input, true)) === 'quit') return 'quit';
      }
      return undefined;
    }
    case 'r': {
      const name = rest.trim() || st.file;
      if (!name) throw new EdError('No current filename');
      if (!st.file) st.file = name;
      const { lines, bytes } = await readLines(st, name);
      snapshot();
      st.lines.splice(ad.count === 0 ? st.lines.length : b, 0, ...lines);
      st.cur = (ad.count === 0 ? st.lines.length - lines.length : b) + lines.length;
      if (lines.length > 0) st.modified = true;
      if (!st.quiet) st.out += `${bytes}\n`;
      return undefined;
    }
    case 'w':
    case 'W': {
      const quit = c === 'w' && rest.startsWith('q');
      if (ad.count === 0) (a = 1), (b = st.lines.length);
      if (st.lines.length > 0) need(a);
      await write(st, a, b, (quit ? rest.slice(1) : rest).trim(), c === 'W');
      return quit ? 'quit' : undefined;
    }
    case 'e':
    case 'E': {
      if (c === 'e' && st.modified) {
        st.modified = false;
        throw new EdError('Warning: buffer modified');
      }
      const name = rest.trim() || st.file;
      if (!name) throw new EdError('No current filename');
      const { lines, bytes } = await readLines(st, name);
      (st.lines = lines), (st.cur = lines.length), (st.file = name), (st.modified = false), (st.undo = undefined);
      if (!st.quiet) st.out += `${bytes}\n`;
      return undefined;
    }
    case 'f':
      if (rest.trim()) st.file = rest.trim();
      else if (!st.file) throw new EdError('No current filename');
      else st.out += `${st.file}\n`;
      return undefined;
    case 'q':
    case 'Q':
      if (c === 'q' && st.modified) {
        st.modified = false;
        throw new EdError('Warning: buffer modified');
      }
      return 'quit';
    case 'h':
      if (st.lastError) st.out += `${st.lastError}\n`;
      return undefined;
    case 'H':
      st.verbose = !st.verbose;
      if (st.verbose && st.lastError) st.out += `${st.lastError}\n`;
      return undefined;
    case '!':
      throw new Refused();
    default:
      throw new EdError('Unknown command');
  }
  if (suffix) print(st, st.cur, st.cur, suffix);
  return undefined;
}

class Refused extends Error {}

async function ed(args: string[], ctx: InputCtx): Promise<ExecResult> {
  const st: State = {
    lines: [], cur: 0, file: undefined, modified: false, quiet: false, extended: false, verbose: false, lastError: undefined, marks: new Map(),
    lastRe: undefined, lastRepl: undefined, undo: undefined, out: '', err: '', fs: ctx.fs, cwd: ctx.cwd,
  };
  let prompt: string | undefined;
  const operands: string[] = [];
  for (let k = 0; k < args.length; k++) {
    const a = args[k]!;
    if (a === '-s' || a === '--quiet' || a === '--silent' || a === '-') st.quiet = true;
    else if (a === '-E' || a === '--extended-regexp') st.extended = true;
    else if (a === '-G' || a === '--traditional') continue;
    else if (a === '-v' || a === '--verbose') st.verbose = true;
    else if (a === '-p' || a === '--prompt') prompt = args[++k] ?? '';
    else if (a.startsWith('--prompt=')) prompt = a.slice(9);
    else if (a.startsWith('-p')) prompt = a.slice(2);
    else if (a.startsWith('-') && a.length > 1) return unsupported('ed', a);
    else operands.push(a);
  }
  let status = 0;
  const fail = (err: EdError) => {
    st.out += `?\n${st.verbose ? `${err.message}\n` : ''}`;
    st.lastError = err.message;
    status = 1;
  };
  if (operands[0] !== undefined) {
    st.file = operands[0];
    try {
      const { lines, bytes } = await readLines(st, operands[0]);
      (st.lines = lines), (st.cur = lines.length);
      if (!st.quiet) st.out += `${bytes}\n`;
    } catch {
      // ed starts with an empty buffer named after the file it could not read.
    }
  }
  const text = latin1FromBytes(ctx.stdin);
  const input = text.split('\n');
  if (input[input.length - 1] === '') input.pop();
  for (;;) {
    if (prompt !== undefined) st.out += prompt;
    const cmd = input.shift();
    if (cmd === undefined) {
      if (st.modified) {
        st.out += `?\n${st.verbose ? 'Warning: buffer modified\n' : ''}`;
        return { stdout: st.out, stderr: st.err, exitCode: 2 };
      }
      break;
    }
    try {
      if ((await run(st, cmd, input, false)) === 'quit') break;
    } catch (err) {
      if (err instanceof Refused) return { stdout: st.out, stderr: `${st.err}ed: !command is not available in the shell engine; ${SANDBOX_HINT}\n`, exitCode: 2 };
      if (!(err instanceof EdError)) throw err;
      fail(err);
    }
  }
  return { stdout: st.out, stderr: st.err, exitCode: status };
}

/** `ed` for just-bash's `customCommands`. */
export function edCommands(): CustomCommand[] {
  return [defineCommand('ed', (args, ctx) => ed(args, ctx))];
}
