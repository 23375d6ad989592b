/**
 * util-linux `flock FILE COMMAND [ARG…]` and `flock FILE -c COMMAND` for the shell engine: it opens FILE (created
 * 0666 less the umask when missing, as open(2) with O_CREAT; a directory is opened read-only), takes an advisory
 * lock on it (exclusive, or shared with `-s`), runs the command and releases the lock when it ends, exiting with
 * the command's status. A conflicting lock held by another `flock` of the same sprite makes `-n` (and `-w 0`) exit
 * with the conflict status (1, or `-E N`) and otherwise waits for its release. Locks live per sprite, keyed by the
 * file's inode, so two names of one file share one lock, as flock(2)'s do.
 * @deviation `flock FD` (a descriptor the shell opened: `exec 9>f; flock 9`), a wait with a timeout (`-w N`, N > 0)
 * that meets a held lock, `--verbose`, `--help` and `--version` are loud refusals; the sandbox engine runs the real one.
 * @see util-linux flock(1), flock.c (exit statuses: 64 usage, 66 an unopenable file, 69 a command that cannot run)
 */
import { defineCommand, type CommandContext, type CustomCommand, type ExecResult } from 'just-bash';
import type { Vfs } from '../vfs.ts';
import { childProcess } from './child-environment.ts';
import { execOnOwnStdin } from './inherited-stdin.ts';
import { notOnPath, programNotFound, reportExecFailure } from './exec-failure.ts';
import { programArgv } from './program-path.ts';
import { shellQuote } from './printf-format.ts';
import { strerror } from './errno-text.ts';
import { parseDuration } from './duration.ts';
import { SANDBOX_HINT } from './world.ts';

/** One file's lock: how many hold it shared, whether one holds it exclusively, and who waits for a release. */
interface LockState {
  shared: number;
  exclusive: boolean;
  waiters: Array<() => void>;
}

/** The locks of every sprite, by its disk and the locked file's inode. */
const LOCKS = new WeakMap<Vfs, Map<number, LockState>>();

const USAGE = 64;
const NO_INPUT = 66;
const UNAVAILABLE = 69;
const TRY = "Try 'flock --help' for more information.\n";

/** What flock's options ask for. */
interface FlockOptions {
  shared: boolean;
  nonblock: boolean;
  /** `-w` seconds (undefined: wait for ever). */
  wait?: number;
  conflictStatus: number;
}

const fail = (stderr: string, exitCode: number): ExecResult => ({ stdout: '', stderr, exitCode });
const refuse = (what: string): ExecResult => fail(`flock: ${what} is not available in the shell engine; ${SANDBOX_HINT}\n`, 2);

/** Reads the options up to the first operand (getopt's `+sexnoFuw:E:hV`); returns the index of the operand or a failure. */
function parseOptions(args: string[], o: FlockOptions): number | ExecResult {
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') return i + 1;
    if (!a.startsWith('-') || a === '-') return i;
    const long: Record<string, string> = { '--shared': 's', '--exclusive': 'x', '--unlock': 'u', '--nonblock': 'n', '--nb': 'n', '--close': 'o', '--no-fork': 'F', '--wait': 'w', '--timeout': 'w', '--conflict-exit-code': 'E' };
    const [name, inline] = a.startsWith('--') ? [a.split('=')[0]!, a.includes('=') ? a.slice(a.indexOf('=') + 1) : undefined] : [a, undefined];
    if (name === '--verbose' || name === '--help' || name === '-h' || name === '--version' || name === '-V') return refuse(name);
    const letters = a.startsWith('--') ? long[name] : a.slice(1);
    if (letters === undefined) return fail(`flock: unrecognized option '${a}'\n${TRY}`, USAGE);
    for (let j = 0; j < letters.length; j++) {
      const c = letters[j]!;
      if (c === 's') o.shared = true;
      else if (c === 'x' || c === 'e') o.shared = false;
      else if (c === 'n') o.nonblock = true;
      else if (c === 'u' || c === 'o' || c === 'F') continue;
      else if (c === 'w' || c === 'E') {
        const value = a.startsWith('--') ? (inline ?? args[++i]) : letters.slice(j + 1) || args[++i];
        if (value === undefined) return fail(`flock: option requires an argument -- '${c}'\n${TRY}`, USAGE);
        if (c === 'w') {
          const seconds = parseDuration(value);
          if (seconds === null) return fail(`flock: invalid timeout value: '${value}'\n`, USAGE);
          o.wait = seconds;
        } else {
          const n = Number(value);
          if (!/^\d+$/.test(value) || n > 255) return fail(`flock: invalid exit code: '${value}'\n`, USAGE);
          o.conflictStatus = n;
        }
        break;
      } else return fail(`flock: invalid option -- '${c}'\n${TRY}`, USAGE);
    }
  }
  return i;
}

/**
 * Opens `path` as flock does (O_RDONLY|O_CREAT, 0666; a directory read-only) through the command's view of the
 * sprite (its user's permissions) and resolves with the file's inode, or with flock's failure.
 */
async function openLockFile(ctx: CommandContext, name: string): Promise<number | ExecResult> {
  const path = ctx.fs.resolvePath(ctx.cwd, name);
  const cannot = (err: unknown) => fail(`flock: cannot open lock file ${name}: ${strerror(err)}\n`, NO_INPUT);
  try {
    if (!(await ctx.fs.exists(path))) await ctx.fs.appendFile(path, '');
    const st = (await ctx.fs.stat(path)) as { ino?: number };
    const access = (ctx.fs as { access?: (p: string, want: 4) => Promise<boolean> }).access;
    if (access && !(await access.call(ctx.fs, path, 4))) return cannot(Object.assign(new Error('EACCES'), { code: 'EACCES' }));
    if (typeof st.ino !== 'number') return refuse('locking a file this filesystem does not number');
    return st.ino;
  } catch (err) {
    return cannot(err);
  }
}

/** Whether a lock of kind `shared` may be taken on `state` now. */
const free = (state: LockState, shared: boolean): boolean => !state.exclusive && (shared || state.shared === 0);

async function flock(args: string[], ctx: CommandContext, vfs: Vfs): Promise<ExecResult> {
  const o: FlockOptions = { shared: false, nonblock: false, conflictStatus: 1 };
  const at = parseOptions(args, o);
  if (typeof at !== 'number') return at;
  const operands = args.slice(at);
  if (operands.length === 0) return fail(`flock: not enough arguments\n${TRY}`, USAGE);
  const [file, ...rest] = operands as [string, ...string[]];
  if (rest.length === 0) {
    if (!/^\d+$/.test(file)) return fail(`flock: bad file descriptor: '${file}'\n`, USAGE);
    return refuse('locking a descriptor the shell opened (flock FD)');
  }
  let argv = rest;
  if (rest[0] === '-c' || rest[0] === '--command') {
    if (rest.length !== 2) return fail(`flock: ${rest[0]} requires exactly one command argument\n`, USAGE);
    argv = [ctx.env.get('SHELL') || '/bin/sh', '-c', rest[1]!];
  }
  const ino = await openLockFile(ctx, file);
  if (typeof ino !== 'number') return ino;
  let locks = LOCKS.get(vfs);
  if (!locks) LOCKS.set(vfs, (locks = new Map()));
  let state = locks.get(ino);
  if (!state) locks.set(ino, (state = { shared: 0, exclusive: false, waiters: [] }));
  const nonblock = o.nonblock || o.wait === 0;
  while (!free(state, o.shared)) {
    if (nonblock) return fail('', o.conflictStatus);
    if (o.wait !== undefined) return refuse('waiting for a lock with a timeout (-w)');
    await new Promise<void>((resolve) => state!.waiters.push(resolve));
  }
  if (o.shared) state.shared++;
  else state.exclusive = true;
  try {
    const failed = (why: string) => `flock: failed to execute ${argv[0]}: ${why}`;
    if (await notOnPath(ctx.fs, ctx.cwd, argv[0]!, ctx.env.get('PATH'))) return programNotFound(failed, () => UNAVAILABLE);
    const r = await execOnOwnStdin(ctx, (await programArgv(ctx, argv)).map(shellQuote).join(' '), { cwd: ctx.cwd, ...childProcess(ctx) });
    return reportExecFailure(r, argv[0]!, failed, () => UNAVAILABLE);
  } finally {
    if (o.shared) state.shared--;
    else state.exclusive = false;
    const waiting = state.waiters.splice(0);
    for (const wake of waiting) wake();
    if (state.shared === 0 && !state.exclusive && state.waiters.length === 0) locks.delete(ino);
  }
}

/** The `flock` command for just-bash's `customCommands`, its locks kept per sprite (`vfs`). */
export function flockCommand(vfs: Vfs): CustomCommand {
  return defineCommand('flock', (args, ctx) => flock(args, ctx, vfs));
}
