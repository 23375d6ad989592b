/**
 * ncurses `tput` for the shell engine: what scripts ask of their terminal (`cols`, `lines`, `colors`, `setaf 1`,
 * `sgr0`, `bold`…), answered from the terminfo entries of the terminals an exec meets (`dumb`, `xterm`,
 * `xterm-256color`, `screen`, `screen-256color`, `tmux-256color`; ncurses 6.4's values) for the exported `TERM` or
 * `-T TYPE`. It owns the capability table and the parameter language of the strings it has; another terminal,
 * capability, `-S`, `init` or `reset` is refused loudly.
 * - No terminal type (bash's own `TERM=dumb` is not exported): `No value for $TERM and no -T specified`, exit 2.
 * - A number prints itself (`-1` when the terminal lacks it); `cols`/`lines` are the TTY's size, else `COLUMNS`/
 *   `LINES` from the environment, else the entry's (80 and 24 when it has none).
 * - A flag prints nothing and exits 0 when the terminal has it, 1 when not; so does a string the terminal lacks.
 * - `clear` adds xterm's scrollback erase (`E3`) unless `-x`.
 * @see tput(1), terminfo(5) "Parameterized Strings"
 */
import { defineCommand, type CommandContext, type CustomCommand, type ExecResult } from 'just-bash';
import { exported } from './env-command.ts';

/** The size of the exec's terminal, when it has one. */
export interface TputTerminal {
  tty: boolean;
  rows: number;
  cols: number;
}

type Entry = Record<string, string | number | true>;

const XTERM_BASE: Entry = {
  am: true, bce: true, km: true, xenl: true, cols: 80, it: 8, lines: 24, colors: 8,
  bel: '\x07', blink: '\x1b[5m', bold: '\x1b[1m', civis: '\x1b[?25l', clear: '\x1b[H\x1b[2J', cnorm: '\x1b[?12l\x1b[?25h',
  cr: '\r', cub: '\x1b[%p1%dD', cub1: '\b', cud: '\x1b[%p1%dB', cud1: '\n', cuf: '\x1b[%p1%dC', cuf1: '\x1b[C',
  cup: '\x1b[%i%p1%d;%p2%dH', cuu: '\x1b[%p1%dA', cuu1: '\x1b[A', dim: '\x1b[2m', ed: '\x1b[J', el: '\x1b[K', el1: '\x1b[1K',
  home: '\x1b[H', hpa: '\x1b[%i%p1%dG', ht: '\t', ind: '\n', op: '\x1b[39;49m', rc: '\x1b8', rev: '\x1b[7m', ritm: '\x1b[23m',
  rmcup: '\x1b[?1049l\x1b[23;0;0t', rmso: '\x1b[27m', rmul: '\x1b[24m', sc: '\x1b7', setab: '\x1b[4%p1%dm',
  setaf: '\x1b[3%p1%dm', sgr0: '\x1b(B\x1b[m', sitm: '\x1b[3m', smcup: '\x1b[?1049h\x1b[22;0;0t', smso: '\x1b[7m',
  smul: '\x1b[4m', vpa: '\x1b[%i%p1%dd', E3: '\x1b[3J',
};
const COLORS_256: Entry = {
  colors: 256,
  setab: '\x1b[%?%p1%{8}%<%t4%p1%d%e%p1%{16}%<%t10%p1%{8}%-%d%e48;5;%p1%d%;m',
  setaf: '\x1b[%?%p1%{8}%<%t3%p1%d%e%p1%{16}%<%t9%p1%{8}%-%d%e38;5;%p1%d%;m',
};
const SCREEN_BASE: Entry = {
  ...XTERM_BASE, bce: '', E3: '', clear: '\x1b[H\x1b[J', cnorm: '\x1b[34h\x1b[?25h', cuu1: '\x1bM', rmcup: '\x1b[?1049l', smcup: '\x1b[?1049h',
  rmso: '\x1b[23m', smso: '\x1b[3m', sgr0: '\x1b[m\x0f', ritm: '', sitm: '',
};

/** The terminfo entries tput answers for, with their `longname`s. */
const ENTRIES: Record<string, { longname: string; caps: Entry }> = {
  dumb: { longname: '80-column dumb tty', caps: { am: true, cols: 80, bel: '\x07', cr: '\r', cud1: '\n', ind: '\n' } },
  xterm: { longname: 'xterm terminal emulator (X Window System)', caps: XTERM_BASE },
  'xterm-256color': { longname: 'xterm with 256 colors', caps: { ...XTERM_BASE, ...COLORS_256 } },
  screen: { longname: 'VT 100/ANSI X3.64 virtual terminal', caps: SCREEN_BASE },
  'screen-256color': { longname: 'GNU Screen with 256 colors', caps: { ...SCREEN_BASE, ...COLORS_256 } },
  'tmux-256color': { longname: 'tmux with 256 colors', caps: { ...SCREEN_BASE, ...COLORS_256, rmso: '\x1b[27m', smso: '\x1b[7m', ritm: '\x1b[23m', sitm: '\x1b[3m' } },
};

/** Every capability name tput knows here, of any terminal above (an empty string: the terminal lacks it). */
const KNOWN = new Set(Object.values(ENTRIES).flatMap((e) => Object.keys(e.caps)));
/** Capabilities whose value is a number. */
const NUMBERS = new Set(['cols', 'lines', 'colors', 'it']);
/** Capabilities whose value is a flag. */
const FLAGS = new Set(['am', 'bce', 'km', 'xenl']);

const USAGE =
  'Usage: tput [options] [command]\n\nOptions:\n  -S <<       read commands from standard input\n  -T TERM     use this instead of $TERM\n' +
  '  -V          print curses-version\n  -x          do not try to clear scrollback\n\nCommands:\n  clear       clear the screen\n' +
  '  init        initialize the terminal\n  reset       reinitialize the terminal\n  capname     unlike clear/init/reset, print value for capability "capname"\n';
const HINT = 'run spritzer with --exec sandbox';

const result = (stdout: string, exitCode = 0, stderr = ''): ExecResult => ({ stdout, stderr, exitCode });

/**
 * Expands a terminfo parameterized string (terminfo(5)): `%pN` pushes a parameter, `%d` pops and prints it, `%{N}`
 * pushes N, `%+ %- %* %/ %m` and `%< %> %=` operate on the top two, `%i` adds one to the first two parameters, and
 * `%? … %t … %e … %;` chooses. Missing parameters are 0.
 */
export function expandParameters(cap: string, params: number[]): string {
  const p = [...params];
  const stack: number[] = [];
  const pop = () => stack.pop() ?? 0;
  let out = '';
  // Skips to the `%e` or `%;` closing this level (`elseToo`: stop at `%e` too).
  const skip = (from: number, elseToo: boolean): number => {
    let depth = 0;
    for (let i = from; i < cap.length; i++) {
      if (cap[i] !== '%') continue;
      const c = cap[++i];
      if (c === '?') depth++;
      else if (c === ';') {
        if (depth === 0) return i + 1;
        depth--;
      } else if (c === 'e' && depth === 0 && elseToo) return i + 1;
    }
    return cap.length;
  };
  for (let i = 0; i < cap.length; i++) {
    if (cap[i] !== '%') {
      out += cap[i];
      continue;
    }
    const c = cap[++i];
    if (c === '%') out += '%';
    else if (c === 'd') out += String(pop());
    else if (c === 'c') out += String.fromCharCode(pop());
    else if (c === 'p') stack.push(p[Number(cap[++i]) - 1] ?? 0);
    else if (c === 'i') [p[0], p[1]] = [(p[0] ?? 0) + 1, (p[1] ?? 0) + 1];
    else if (c === '{') {
      const end = cap.indexOf('}', i);
      stack.push(Number(cap.slice(i + 1, end)));
      i = end;
    } else if ('+-*/m<>='.includes(c ?? '')) {
      const b = pop();
      const a = pop();
      const ops: Record<string, number> = { '+': a + b, '-': a - b, '*': a * b, '/': b ? Math.trunc(a / b) : 0, m: b ? a % b : 0, '<': +(a < b), '>': +(a > b), '=': +(a === b) };
      stack.push(ops[c!]!);
    } else if (c === 't') {
      if (!pop()) i = skip(i + 1, true) - 1;
    } else if (c === 'e') i = skip(i + 1, false) - 1;
    // `%?` opens and `%;` closes a condition: nothing to do at run time.
  }
  return out;
}

/** How many parameters a string capability takes (its highest `%pN`). */
const arity = (cap: string): number => Math.max(0, ...[...cap.matchAll(/%p(\d)/g)].map((m) => Number(m[1])));

function tput(args: string[], ctx: CommandContext, term: TputTerminal): ExecResult {
  let type: string | undefined;
  let scrollback = true;
  let i = 0;
  for (; i < args.length && args[i]!.startsWith('-') && args[i] !== '-'; i++) {
    const a = args[i]!;
    if (a === '--') {
      i++;
      break;
    }
    if (a === '-T') type = args[++i] ?? '';
    else if (a.startsWith('-T')) type = a.slice(2);
    else if (a === '-x') scrollback = false;
    else return result('', 2, `tput: option ${a} is not available in the shell engine; ${HINT}\n`);
  }
  const env = exported(ctx);
  type ??= env.TERM;
  if (!type) return result('', 2, 'tput: No value for $TERM and no -T specified\n');
  const entry = ENTRIES[type];
  if (!entry) return result('', 3, `tput: the terminal "${type}" is not known to the shell engine; ${HINT}\n`);
  const operands = args.slice(i);
  if (operands.length === 0) return result('', 2, USAGE);
  let out = '';
  let status = 0;
  while (operands.length > 0) {
    const name = operands.shift()!;
    if (name === 'init' || name === 'reset') return result(out, 2, `tput: ${name} is not available in the shell engine; ${HINT}\n`);
    if (name === 'longname') {
      out += entry.longname;
      continue;
    }
    const value = entry.caps[name === 'clear' ? 'clear' : name];
    if (!KNOWN.has(name)) return result(out, 4, `tput: the terminfo capability '${name}' is not known to the shell engine; ${HINT}\n`);
    if (NUMBERS.has(name)) {
      const size = name === 'cols' ? term.cols : name === 'lines' ? term.rows : 0;
      const fromEnv = name === 'cols' ? env.COLUMNS : name === 'lines' ? env.LINES : undefined;
      if ((name === 'cols' || name === 'lines') && term.tty) out += `${size}\n`;
      else if (fromEnv !== undefined && /^[1-9]\d*$/.test(fromEnv)) out += `${fromEnv}\n`;
      else out += `${typeof value === 'number' ? value : name === 'cols' ? 80 : name === 'lines' ? 24 : -1}\n`;
      continue;
    }
    if (FLAGS.has(name)) {
      status = value === true ? 0 : 1;
      continue;
    }
    if (typeof value !== 'string' || value === '') {
      // ncurses' tput ends at once: clear on a terminal without it with 2, any other string with 1.
      return result(out, name === 'clear' ? 2 : 1);
    }
    const params: number[] = [];
    for (let n = arity(value); n > 0 && operands.length > 0 && /^-?\d+$/.test(operands[0]!); n--) params.push(Number(operands.shift()));
    out += params.length === 0 && arity(value) > 0 ? value : expandParameters(value, params);
    if (name === 'clear' && scrollback && typeof entry.caps.E3 === 'string') out += entry.caps.E3;
    status = 0;
  }
  return result(out, status);
}

/** The `tput` command over the exec's terminal `term`. */
export function tputCommand(term: TputTerminal): CustomCommand {
  return defineCommand('tput', async (args, ctx) => tput(args, ctx, term));
}
