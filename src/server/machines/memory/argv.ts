/**
 * What the in-memory engines (`shell`, `interpreter`) share about a request and a process: how an exec's argv
 * becomes a script (`sh -c` / `bash -lc` unwrapped, anything else taken as a plain command), how a terminal
 * shapes output in TTY mode, and the exit/signal bookkeeping of a process that lives in this Node process.
 * It runs nothing itself; engines that run real processes (sandbox, container) do not use it.
 */
import { signalNumber } from '../../../protocol/signals.ts';
import type { ExecIO, ExecRequest } from '../port.ts';

/**
 * How a request is to be run:
 * - `shell`: the client asked a shell to run a script (`sh -c SCRIPT`, `bash -lc SCRIPT`, …); `scriptArgs` are the
 *   words after the script, which a shell binds to `$0 $1 …`;
 * - `argv`: any other command, run as `req.argv` says (`argv[0]` names the program).
 */
export type CommandPlan =
  | { form: 'shell'; script: string; scriptArgs: string[] }
  | { form: 'argv'; argv: string[] };

const SHELLS = new Set(['sh', 'bash']);
const SCRIPT_FLAGS = new Set(['-c', '-lc', '-cl']);

/**
 * Reads an exec request's command (docs/wire-reference.md §4.2: repeated `cmd`, optional `path`). When the program
 * (basename of `req.path ?? argv[0]`) is `sh` or `bash` and it is followed by `-c`, `-lc`, `-cl`, or `-l -c`, the
 * next argument is the script; otherwise the command is argv itself, run as `path` when `path` names another
 * program than argv[0], as execve does on a real sprite (`path=echo&cmd=x&cmd=hi` prints `hi`).
 * `-l` (login shell) is left to the engine: the shell engine reads the profile files (shell/shell-command.ts).
 * @see docs/wire-reference.md §4.2, §18.1 (JS `exec('a b c')` sends `cmd=a&cmd=b&cmd=c`, `path=a`)
 */
export function planCommand(req: Pick<ExecRequest, 'argv' | 'path'>): CommandPlan {
  const program = req.path ?? req.argv[0] ?? '';
  const args = req.argv.slice(1);
  if (SHELLS.has(basename(program))) {
    let at = -1;
    if (SCRIPT_FLAGS.has(args[0] ?? '')) at = 1;
    else if (args[0] === '-l' && args[1] === '-c') at = 2;
    if (at > 0 && at < args.length) return { form: 'shell', script: args[at]!, scriptArgs: args.slice(at + 1) };
  }
  // `path` names the executable and argv[0] is only its display name (as execve does): run `path` when it differs.
  if (req.path && req.argv.length > 0 && basename(req.path) !== basename(req.argv[0]!)) return { form: 'argv', argv: [req.path, ...args] };
  return { form: 'argv', argv: [...req.argv] };
}

/**
 * Quotes one word for a POSIX shell so it reaches the program unchanged (`a b` → `'a b'`, `it's` → `'it'\''s'`);
 * words made only of safe characters are left bare, and `''` stands for the empty word.
 */
export function shellQuote(word: string): string {
  if (word === '') return "''";
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * The ExecIO a command should write to. Without a TTY it is `io` itself. With one it mimics a PTY in its default
 * mode: stderr goes to stdout (one device) and every `\n` becomes `\r\n` (the `onlcr` output flag).
 * @see docs/wire-reference.md §4.5 ("stdout and stderr are merged")
 */
export function terminalIO(io: ExecIO, tty: boolean): ExecIO {
  if (!tty) return io;
  const write = (data: Uint8Array) => io.stdout(onlcr(data));
  return { stdout: write, stderr: write };
}

/**
 * Replaces each LF byte with CR LF, as a terminal's `onlcr` does (an existing CR is kept: `\r\n` → `\r\r\n`).
 * Scans with the native `indexOf` and copies whole runs, so a large output costs no per-byte JavaScript.
 */
export function onlcr(data: Uint8Array): Uint8Array {
  let count = 0;
  for (let i = data.indexOf(0x0a); i !== -1; i = data.indexOf(0x0a, i + 1)) count++;
  if (count === 0) return data;
  const out = new Uint8Array(data.length + count);
  let from = 0;
  let j = 0;
  for (let lf = data.indexOf(0x0a); lf !== -1; lf = data.indexOf(0x0a, lf + 1)) {
    out.set(data.subarray(from, lf), j);
    j += lf - from;
    out[j++] = 0x0d;
    out[j++] = 0x0a;
    from = lf + 1;
  }
  out.set(data.subarray(from), j);
  return out;
}

/** Signals whose default action is not to terminate (ignore, stop, continue): delivering them ends nothing. */
const NON_FATAL = new Set([17 /* CHLD */, 18 /* CONT */, 19 /* STOP */, 20 /* TSTP */, 28 /* WINCH */]);

/**
 * The exit bookkeeping of an in-memory process: one `exit` promise that settles once, with the first code given
 * (clamped to 0–255, where out-of-range codes become 255 as on the Sprites server), and signal delivery that ends
 * a still-running process with `128 + signum` (TERM 143, KILL 137, INT 130, HUP 129).
 * @see docs/wire-reference.md §4.4 (exit byte, clamping), §4.6 (`signal`), §4.9 (143 after TERM)
 */
export class ProcessExit {
  /** Resolves with the exit code; never rejects. */
  readonly exit: Promise<number>;
  private settle!: (code: number) => void;
  private done = false;

  constructor() {
    this.exit = new Promise<number>((resolve) => {
      this.settle = resolve;
    });
  }

  /** True once the process has ended (normally or by a signal). */
  get finished(): boolean {
    return this.done;
  }

  /** Ends the process with `code` unless it already ended; returns whether this call ended it. */
  finish(code: number): boolean {
    if (this.done) return false;
    this.done = true;
    this.settle(Number.isInteger(code) && code >= 0 && code <= 255 ? code : 255);
    return true;
  }

  /**
   * Delivers `name` (any spelling `signalNumber` accepts: `TERM`, `SIGTERM`, `9`). A fatal signal ends a running
   * process with `128 + signum` and returns true; an unknown or non-fatal signal (CHLD, CONT, STOP, TSTP, WINCH), or
   * any signal after the end, changes nothing and returns false.
   */
  signal(name: string): boolean {
    const n = signalNumber(name);
    if (n === null || NON_FATAL.has(n)) return false;
    return this.finish(128 + n);
  }
}

function basename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
