/**
 * The `shell` exec engine (the default): commands run in just-bash, a simulated bash, over the sprite's VFS (through
 * `BashFs`), so whatever a command writes is in the sprite's filesystem and in its next checkpoint. It owns the
 * process lifecycle around one `Bash.exec` call: stdin collection, terminal emulation (`tty`, `stty size`,
 * resize, ^C), signals, and the seed's `./risky.sh`. Output streams per command, as bytes (output-sink.ts,
 * byte-commands.ts); a TTY `bash`/`sh` with no script is the interactive shell of tty.ts.
 * @see docs/architecture.md "Machines and engines", docs/fidelity.md "Per engine", node_modules/just-bash/README.md
 */
import { testCommands } from './test-commands.ts';
import {
  Bash,
  defineCommand,
  getCommandNames,
  parse,
  stdoutKind,
  type BashExecResult,
  type CustomCommand,
  type ExecResult,
} from 'just-bash';
import { curlSpriteApiCommand, spriteEnvCommand } from '../sprite-env-command.ts';
import type { Clock, TimerHandle } from '../../../core/clock.ts';
import { Vfs } from '../vfs.ts';
import { planCommand, ProcessExit, shellQuote, terminalIO } from '../argv.ts';
import { BashFs } from './bash-fs.ts';
import { runRiskyScript } from '../interpreter.ts';
import type { EngineProcess, ExecEngine, SpriteContext } from '../engine.ts';
import type { ExecIO, ExecRequest, ExecStartOptions } from '../../port.ts';
import type { ProcInfo } from './proc.ts';
import { LATE_STDIN_MESSAGE, STDIN_TOO_LARGE_EXIT, StdinBuffer, stdinTooLargeMessage } from './stdin-buffer.ts';
import { DEFAULT_STDIN_WAIT_MS, exitAfterLateStdin, scriptMayReadStdin } from './stdin-wait.ts';
import { memoizeByScript } from './script-memo.ts';
import { serializeScript } from './script-ast.ts';
import { isBash, nextShellLevel, withLastCommandLevel } from './shell-level.ts';
import { commandStringPlace, readAtATime, withSyntaxRecovery } from './syntax-errors.ts';
import { shellCommands, STREAMING_SHELL } from './shell-command.ts';
import { BASH_FALLBACKS, bashVariables, envCommands, startingPath } from './env-command.ts';
import { sqlite3Command } from './sqlite3-command.ts';
import { pythonCommands } from './python-command.ts';
import { perlCommand } from './perl-command.ts';
import { NODE_LOCALE } from './node-locale.ts';
import { NODE_PROMISES } from './node-promises.ts';
import { CommandFeed, LAST_STATUS, NEXT_COMMAND, STDIN_SHELL_SCRIPT } from './stdin-shell.ts';
import { DEFAULT_EXEC_STREAM_LIMITS } from '../../../config/exec-limits.ts';
import { yieldAfter } from '../../../runtime/event-loop.ts';
import { installShellTurns } from './turns.ts';
import { streamTopLevel, withOutputSinks, type OutputSinks } from './output-sink.ts';
import { byteExactCommands } from './byte-commands.ts';
import { GNU_COMMAND_NAMES, gnuCommands } from './gnu-commands.ts';
import { SYSINFO_COMMAND_NAMES, sysinfoCommands } from './sysinfo-commands.ts';
import { COREUTILS_EXTRA_NAMES, coreutilsExtra } from './coreutils-extra.ts';
import { ZIP_COMMAND_NAMES, zipCommands } from './zip-commands.ts';
import { COMPRESS_COMMAND_NAMES, compressCommands } from './compress-commands.ts';
import { ddCommand } from './dd-command.ts';
import { splitCommand } from './split-command.ts';
import { csplitCommand } from './csplit-command.ts';
import { curlCommand } from './curl-command.ts';
import { iconvCommand } from './iconv-command.ts';
import { tputCommand } from './tput-command.ts';
import { envsubstCommand } from './envsubst-command.ts';
import { withLoudOptions } from './loud-options.ts';
import { withGnuHelp } from './gnu-help.ts';
import { copyMoveCommands } from './copy-move.ts';
import { rsyncCommand } from './rsync-command.ts';
import { grepCommands } from './grep-command.ts';
import { statCommands } from './stat-command.ts';
import { sedCommands } from './sed-command.ts';
import { TEXT_COMMAND_NAMES, textCommands } from './text-commands.ts';
import { pathNameCommands } from './path-names.ts';
import { diskCommands } from './disk-commands.ts';
import { linkCommands } from './link-commands.ts';
import { modeCommands } from './mode-commands.ts';
import { fileCommand } from './file-command.ts';
import { whichCommand } from './which-command.ts';
import { timeoutCommand } from './timeout-command.ts';
import { flockCommand } from './flock-command.ts';
import { withQuotedDiagnostics } from './diagnostic-names.ts';
import { sleepCommand } from './sleep-command.ts';
import { pwdCommand } from './pwd-command.ts';
import { execTooLong } from './exec-limits.ts';
import { FREE_UPTIME_NAMES, freeUptimeCommands } from './free-uptime.ts';
import { InteractiveShell, isInteractiveShellRequest, type ShellState } from './tty.ts';
import { deliver, startJobControl, type JobHooks } from './job-runner.ts';
import { commOf } from '../processes.ts';
import { PROCESS_COMMAND_NAMES, processCommands } from './process-commands.ts';
import { JOB_COMMAND_NAMES, rewriteJobControl, type JobControl } from './jobs.ts';
import { DEFAULT_SHELL_LIMITS, describeShellError, explainLimits, shellExecutionLimits, WORLD_COMMAND_NAMES, worldCommands, type ShellLimits } from './world.ts';
import { shellTextBytes } from './shell-text.ts';
import { bashGroups, SPRITE_ACCOUNT } from '../accounts.ts';

const SIXTY_FOUR_MIB = 64 * 1024 * 1024;

/** Default quiet period (ms, on the injected clock) before the first stdin chunk, after which stdin counts as empty. */
export const DEFAULT_STDIN_GRACE_MS = 50;
/** Quiet period (ms) after a stdin chunk, after which stdin counts as complete when no EOF came. */
export const STDIN_IDLE_AFTER_DATA_MS = 1_000;

/** What the shell engine needs. */
export interface ShellEngineDeps {
  /** Schedules the stdin grace period and `sleep`. */
  clock: Clock;
  /** Quiet period before stdin counts as complete when the client never sends EOF; default 50 ms. */
  stdinGraceMs?: number;
  /** Wait for the first stdin byte or EOF of a non-TTY command that may read stdin (stdin-wait.ts); default 2 s. */
  stdinWaitMs?: number;
  /** Most stdin bytes one command may get; default `DEFAULT_EXEC_STREAM_LIMITS.maxStdinBytes` (64 MiB). */
  maxStdinBytes?: number;
  /** Command count and time limits of one exec (`--shell-max-commands`, `--shell-timeout`); default `DEFAULT_SHELL_LIMITS`. */
  limits?: ShellLimits;
}

/** The terminal a TTY command sees; `resize` mutates it while the command runs. */
interface Terminal {
  tty: boolean;
  rows: number;
  cols: number;
}

/** The command `./risky.sh` is rewritten to when the sprite has no `risky.sh` of its own. */
const RISKY_COMMAND = 'spritzer-risky.sh';
/** Commands spritzer adds to just-bash's, and the opt-in ones it enables (`python: true`). */
const EXTRA_COMMANDS = ['dash', 'tty', 'stty', 'curl', 'truncate', 'fallocate', 'du', 'df', 'mountpoint', 'link', 'unlink', 'chown', 'chgrp', 'sprite-env', 'curl-sprite-api', 'python3', 'python', 'perl', 'flock', ...WORLD_COMMAND_NAMES, ...GNU_COMMAND_NAMES, ...SYSINFO_COMMAND_NAMES, ...COREUTILS_EXTRA_NAMES, ...ZIP_COMMAND_NAMES, ...COMPRESS_COMMAND_NAMES, 'dd', 'csplit', 'iconv', 'tput', 'envsubst', 'rsync', 'test', '[', ...JOB_COMMAND_NAMES, ...PROCESS_COMMAND_NAMES, ...TEXT_COMMAND_NAMES, ...FREE_UPTIME_NAMES];
// Every command needs its stub: with `/usr/bin` and `/bin` in the sprite's tree, just-bash finds commands on PATH.
// The interactive shell's own per-line helpers (startInteractive) are commands too, so that PATH lookup finds them.
/** spritzer's own complete commands: they word a rejected option as GNU does (GNU lacks it too). */
const EXACT_COMMANDS: ReadonlySet<string> = new Set(['rm', 'ls', 'find', 'stat', 'dirname', 'basename', 'truncate', 'fallocate', 'du', 'df', 'mountpoint', 'ln', 'link', 'unlink', 'readlink', 'pwd', 'chmod', 'mkdir', 'rmdir', 'chown', 'chgrp', 'tty', 'stty', 'hostname', 'uname', 'printenv', 'date', 'which', ...FREE_UPTIME_NAMES, ...GNU_COMMAND_NAMES, ...SYSINFO_COMMAND_NAMES, ...ZIP_COMMAND_NAMES, ...COMPRESS_COMMAND_NAMES, 'dd', 'split', 'csplit', 'curl', 'iconv', 'tput', 'envsubst', 'rsync', 'yes', 'sleep', 'flock', ...TEXT_COMMAND_NAMES]);
/** just-bash's own commands. */
const JUST_BASH_COMMANDS: readonly string[] = getCommandNames();
const COMMAND_NAMES: ReadonlySet<string> = new Set([
  ...getCommandNames(),
  ...EXTRA_COMMANDS,
  RISKY_COMMAND,
  '__spritzer_status',
  '__spritzer_line_end',
  STREAMING_SHELL,
  NEXT_COMMAND,
  LAST_STATUS,
]);

/**
 * The script just-bash runs for a request: a `sh -c`/`bash -lc` script as is (with its extra words bound to
 * `$0 $1 …` through a nested `sh -c`), any other argv as one command with every word shell-quoted (so
 * `['echo', 'a b']` prints `a b`).
 * @see argv.ts `planCommand`
 */
export function shellScript(req: Pick<ExecRequest, 'argv' | 'path'>): string {
  const plan = planCommand(req);
  if (plan.form === 'argv') return plan.argv.map(shellQuote).join(' ');
  // A login shell (`bash -lc`, `bash -l -c`) reads the profile files first: its own `bash` command does that.
  const login = req.argv.slice(1).some((w) => w === '--login' || /^-[a-z]*l[a-z]*$/.test(w));
  if (login) return [loginShellOf(req), '-lc', plan.script, ...plan.scriptArgs].map(shellQuote).join(' ');
  if (plan.scriptArgs.length === 0) return plan.script;
  return ['sh', '-c', plan.script, ...plan.scriptArgs].map(shellQuote).join(' ');
}

/** `bash` or `sh`, as the request names its shell. */
function loginShellOf(req: Pick<ExecRequest, 'argv' | 'path'>): string {
  const program = req.path ?? req.argv[0] ?? '';
  return program.slice(program.lastIndexOf('/') + 1) === 'sh' ? 'sh' : 'bash';
}

/**
 * Rewrites every command named literally `./risky.sh` to spritzer's built-in version of the seed script (see
 * `runRiskyScript`), unless `dir` holds a real `risky.sh`. Scripts that do not mention it, or do not parse, are
 * returned unchanged (just-bash then reports the syntax error itself).
 */
export function withSeedRiskyScript(script: string, vfs: Vfs, dir: string): string {
  if (!script.includes('./risky.sh') || vfs.exists(Vfs.normalize('risky.sh', dir))) return script;
  let ast: ReturnType<typeof parse>;
  try {
    ast = parse(script);
  } catch {
    return script;
  }
  let changed = false;
  visit(ast, (node) => {
    const name = node.type === 'SimpleCommand' ? (node.name as { parts?: Array<{ type: string; value?: string }> } | null) : null;
    const part = name?.parts?.length === 1 ? name.parts[0]! : null;
    if (part?.type === 'Literal' && part.value === './risky.sh') {
      part.value = RISKY_COMMAND;
      changed = true;
    }
  });
  return changed ? serializeScript(ast) : script;
}

/** Calls `fn` on every AST node (any object with a string `type`) below `root`, depth first. */
function visit(root: unknown, fn: (node: { type: string } & Record<string, unknown>) => void): void {
  if (Array.isArray(root)) {
    for (const item of root) visit(item, fn);
  } else if (root !== null && typeof root === 'object') {
    const node = root as { type?: unknown } & Record<string, unknown>;
    if (typeof node.type === 'string') fn(node as { type: string } & Record<string, unknown>);
    for (const value of Object.values(node)) visit(value, fn);
  }
}

const text = (stdout: string, exitCode = 0, stderr = ''): ExecResult => ({ stdout, stderr, exitCode });

/**
 * The commands spritzer adds to just-bash: `tty`, `stty` (answering from `term`) and the seed's risky script
 * (`whoami`, `id`, `sudo`… are gnu-commands.ts's).
 * - `tty` prints `/dev/pts/0` with a TTY, else `not a tty` and exits 1; `-s` prints nothing.
 * - `stty size` prints `<rows> <cols>`; `stty rows N cols M` changes the size; bare `stty`/`stty -a` print a
 *   short settings line; other settings are accepted and ignored. Without a TTY it fails like stty on a pipe.
 * @deviation `stty` keeps no terminal modes; only the size is real.
 */
function spritzerCommands(term: Terminal, vfs: Vfs): CustomCommand[] {
  return [
    defineCommand('tty', async (args) => {
      const silent = args.includes('-s') || args.includes('--silent') || args.includes('--quiet');
      if (!term.tty) return text(silent ? '' : 'not a tty\n', 1);
      return text(silent ? '' : '/dev/pts/0\n');
    }),
    defineCommand('stty', async (args) => {
      if (!term.tty) return text('', 1, "stty: 'standard input': Inappropriate ioctl for device\n");
      if (args[0] === 'size') return text(`${term.rows} ${term.cols}\n`);
      if (args.length === 0 || args[0] === '-a' || args[0] === '--all') {
        return text(`speed 38400 baud; rows ${term.rows}; columns ${term.cols}; line = 0;\n`);
      }
      for (let i = 0; i < args.length - 1; i++) {
        const n = Number(args[i + 1]);
        if (!Number.isInteger(n) || n < 0) continue;
        if (args[i] === 'rows') term.rows = n;
        if (args[i] === 'cols' || args[i] === 'columns') term.cols = n;
      }
      return text('');
    }),
    defineCommand(RISKY_COMMAND, async () => {
      const r = runRiskyScript(vfs);
      return text('', r.exit, new TextDecoder().decode(r.stderr));
    }),
  ];
}

/**
 * Creates the `shell` engine. Per command: a fresh just-bash shell over the sprite's VFS, the environment exactly
 * `req.env` (nothing merged in), the working directory `req.dir`, `$$` the sprite pid. `sh -c`, `bash -c`,
 * `sh -lc`, `bash -lc` are unwrapped before just-bash sees them (it rejects `-lc`).
 *
 * Stdin: a non-TTY `bash`/`sh` with no script reads its commands from stdin as they arrive (stdin-shell.ts).
 * Otherwise just-bash needs all of stdin before it starts. With `opts.stdin` false the command starts at once with
 * empty stdin. With `opts.stdin` true it starts on `endStdin()`; without EOF, once `stdinGraceMs` pass with no
 * stdin at all (`stdinWaitMs` when the script may read stdin and is not a TTY, stdin-wait.ts), or
 * `STDIN_IDLE_AFTER_DATA_MS` after the last chunk (an empty chunk counts: the WebSocket layer sends one while a
 * large frame is still arriving). Chunks arriving after the start are dropped, and the first such chunk puts
 * `LATE_STDIN_MESSAGE` on stderr; a command that may read stdin then exits 1 instead of 0. More than
 * `maxStdinBytes` of stdin ends the command before it runs: `stdinTooLargeMessage` on stderr, exit 126, so stdin is
 * never cut silently (docs/limits.md, exec stdin per command).
 * @deviation Real Sprites stream stdin to a live process; here stdin is collected first (at most
 * `maxStdinBytes`), and a client that asks for stdin but never sends EOF (the JS SDK's `exec()`) gets its command
 * started after the grace period.
 * Output: each command's output is delivered when that command ends, byte for byte (see `streamTopLevel`), and
 * what is left when the script ends (output just-bash kept back) after it.
 * @deviation Output streams per command, not per write (see output-sink.ts for what arrives only at the end).
 * `sleep` runs on the injected clock. With a TTY, stderr joins stdout in order, `\n` becomes `\r\n`, and a raw
 * `03` byte is SIGINT (exit 130); other input gets no line discipline unless the command is an interactive shell.
 * @see docs/wire-reference.md §4.2, §4.4 (stdin, EOF), §4.5 (TTY), §4.6 (signal, resize)
 */
export function createShellEngine(deps: ShellEngineDeps): ExecEngine {
  const graceMs = deps.stdinGraceMs ?? DEFAULT_STDIN_GRACE_MS;
  const waitMs = deps.stdinWaitMs ?? DEFAULT_STDIN_WAIT_MS;
  const maxStdinBytes = deps.maxStdinBytes ?? DEFAULT_EXEC_STREAM_LIMITS.maxStdinBytes;
  const limits = deps.limits ?? DEFAULT_SHELL_LIMITS;
  const { clock } = deps;
  return {
    name: 'shell',
    start(sprite: SpriteContext, req: ExecRequest, io: ExecIO, opts: ExecStartOptions): EngineProcess {
      if (req.tty && isInteractiveShellRequest(req.argv, req.path)) return startInteractive(sprite, req, io, clock, maxStdinBytes, limits);
      const pid = sprite.allocatePid();
      const proc = new ProcessExit();
      const term: Terminal = { tty: req.tty, rows: req.rows, cols: req.cols };
      const abort = new AbortController();
      const timers = new Set<TimerHandle>();
      const stdin = new StdinBuffer(maxStdinBytes);
      let launched = false;
      let warnedLateStdin = false;
      let lateStdinBytes = 0;
      // A non-TTY command that may read stdin waits longer for its first byte, so a slow client's stdin is not lost
      // (stdin-wait.ts).
      const mayReadStdin = opts.stdin && !req.tty && mayReadStdinOf(shellScript(req));
      // `bash` reading its commands from a stdin that is not a terminal runs each one as it arrives (stdin-shell.ts).
      const feed = opts.stdin && !req.tty && isInteractiveShellRequest(req.argv, req.path) ? new CommandFeed(instrument) : null;
      let grace: TimerHandle | null = null;

      const after = (ms: number, fn: () => void): TimerHandle => {
        const handle = clock.setTimeout(() => {
          timers.delete(handle);
          fn();
        }, ms);
        timers.add(handle);
        return handle;
      };
      const stopTimers = () => {
        for (const t of timers) clock.clearTimeout(t);
        timers.clear();
      };
      const out = terminalIO(io, req.tty);
      const live = liveSinks(out, () => proc.finished);
      // Background jobs, `wait`, `kill` and traps (job-runner.ts); `deliver` is the exec's signal entry.
      const control = jobControlOf({ sprite, req, pid, term, clock, maxStdinBytes, limits, sinks: live }, (name) => deliver(name));
      const deliver = (name: string) => {
        if (proc.finished) return;
        if (control.signal(name, () => (abort.abort(), stopTimers()), (code) => (proc.finish(code), stopTimers()))) return;
        if (!proc.signal(name)) return;
        abort.abort();
        stopTimers();
        control.release();
      };
      const disarmGrace = () => {
        if (!grace) return;
        clock.clearTimeout(grace);
        timers.delete(grace);
        grace = null;
      };
      const launch = () => {
        if (launched || proc.finished) return;
        launched = true;
        disarmGrace();
        const script = feed ? { ...req, argv: ['sh', '-c', STDIN_SHELL_SCRIPT], path: undefined, env: { ...req.env, ...interactiveLevel(req) } } : req;
        void runShell(sprite, script, pid, term, stdin.take(), maxStdinBytes, limits, {
          abort: abort.signal,
          sinks: live,
          sleep: (ms) => new Promise<void>((resolve) => void after(ms, resolve)),
          clock,
          jobs: control.jobs,
          topLevel: !feed,
          commands: feed?.commands(),
        }).then(async (result) => {
          // A large result took just-bash a while: let other requests in before converting and sending it.
          await yieldAfter(result.stdout.length);
          if (proc.finished || control.ending) return;
          try {
            const stdout = stdoutBytes(result);
            if (stdout.length > 0) out.stdout(new Uint8Array(stdout));
            if (result.stderr) out.stderr(new TextEncoder().encode(result.stderr));
          } catch {
            // A sink that throws is the caller's failure; the process still ends, and `exit` still settles.
          } finally {
            // The EXIT trap runs and the background jobs end before the exit is reported.
            void control.end(result.exitCode, ('env' in result && result.env) || req.env).then((code) => {
              proc.finish(exitAfterLateStdin(code, mayReadStdin, lateStdinBytes));
              stopTimers();
            });
          }
        });
      };
      const armGrace = (ms: number) => {
        disarmGrace();
        grace = after(ms, launch);
      };

      if (opts.stdin && !feed) armGrace(mayReadStdin ? Math.max(graceMs, waitMs) : graceMs);
      else queueMicrotask(launch);

      return {
        pid,
        exit: proc.exit,
        writeStdin(data: Uint8Array) {
          if (proc.finished) return;
          // A raw ^C on a terminal is SIGINT to the foreground command (the line discipline's ISIG).
          if (term.tty && data.includes(0x03)) {
            deliver('INT');
            return;
          }
          if (!opts.stdin) return;
          if (feed) {
            feed.push(data);
            return;
          }
          if (launched) {
            lateStdinBytes += data.length;
            if (data.length > 0 && !warnedLateStdin) {
              warnedLateStdin = true;
              out.stderr(new TextEncoder().encode(LATE_STDIN_MESSAGE));
            }
            return;
          }
          if (!stdin.add(data)) {
            launched = true;
            stopTimers();
            out.stderr(new TextEncoder().encode(stdinTooLargeMessage(maxStdinBytes)));
            proc.finish(STDIN_TOO_LARGE_EXIT);
            return;
          }
          armGrace(Math.max(graceMs, STDIN_IDLE_AFTER_DATA_MS));
        },
        endStdin: () => (feed ? feed.end() : launch()),
        resize(cols: number, rows: number) {
          if (!term.tty) return;
          term.cols = cols;
          term.rows = rows;
        },
        signal: deliver,
      };
    },
  };
}

/**
 * The job control of one exec or interactive shell (job-runner.ts): background jobs run as their own
 * `sh -c` executions of this engine over the same sprite, with empty stdin and this exec's pid as `$$`, writing to
 * `sinks`; `signalSelf` delivers a signal to the exec itself (`kill $$`), on the next microtask.
 */
function jobControlOf(
  at: { sprite: SpriteContext; req: ExecRequest; pid: number; term: Terminal; clock: Clock; maxStdinBytes: number; limits: ShellLimits; sinks: OutputSinks },
  signalSelf: (name: string) => void,
): JobHooks {
  const { sprite, req, pid, term, clock, maxStdinBytes, limits, sinks } = at;
  return startJobControl({
    allocatePid: () => sprite.allocatePid(),
    selfPid: pid,
    clock,
    sinks,
    signalSelf: (name) => queueMicrotask(() => signalSelf(name)),
    processes: sprite.processes,
    shell: { args: req.argv.join(' '), comm: commOf(req.argv[0] ?? req.path ?? 'sh'), tty: req.tty ? 'pts/0' : null },
    jobControl: req.tty && isInteractiveShellRequest(req.argv, req.path),
    run: (script, env, cwd, ctl) =>
      runShell(sprite, { ...req, argv: ['sh', '-c', script], path: undefined, env, dir: cwd }, pid, term, new Uint8Array(0), maxStdinBytes, limits, { ...ctl, clock, sinks }),
  });
}

/** A script with job control rewritten (jobs.ts) and each command's output streamed (output-sink.ts), per text. */
const instrument = memoizeByScript((script) => streamTopLevel(rewriteJobControl(script), false));
/** The same for a TTY exec: stderr joins stdout. */
const instrumentTty = memoizeByScript((script) => streamTopLevel(rewriteJobControl(script), true));
/** {@link withLastCommandLevel} per level and script (the memo takes one text: `LEVEL\nSCRIPT`). */
const lastLevelOf = memoizeByScript((key) => {
  const cut = key.indexOf('\n');
  return withLastCommandLevel(key.slice(cut + 1), Number(key.slice(0, cut)));
});
/** A `bash -c` script as bash runs it when it has a syntax error (syntax-errors.ts), per text. */
const recoverSyntax = memoizeByScript((script) => withSyntaxRecovery(script, commandStringPlace));
/** {@link scriptMayReadStdin}, per text. */
const mayReadStdinOf = memoizeByScript(scriptMayReadStdin);

/** Each sprite's {@link worldCommands} per clock, built on its first exec, not on every one (≈ 3 % of an exec's CPU). */
const worlds = new WeakMap<SpriteContext, WeakMap<Clock, CustomCommand[]>>();
function worldCommandsOf(sprite: SpriteContext, clock: Clock): CustomCommand[] {
  let byClock = worlds.get(sprite);
  if (!byClock) worlds.set(sprite, (byClock = new WeakMap()));
  let commands = byClock.get(clock);
  if (!commands) byClock.set(clock, (commands = worldCommands({ hostname: sprite.name, now: () => clock.now() })));
  return commands;
}

/**
 * The commands that keep nothing of their own between calls (each takes its files, environment and input from the
 * context it is called with), built once per process and in the order each exec lists them: building and wrapping
 * them again for every exec was about a tenth of an `echo ok` exec's CPU.
 */
let sharedTable: ReturnType<typeof buildSharedCommands> | undefined;
const sharedCommands = () => (sharedTable ??= buildSharedCommands());
function buildSharedCommands() {
  return {
    system: [...gnuCommands(), ...sysinfoCommands(), ...coreutilsExtra(), ...zipCommands(), ...compressCommands(), ddCommand(), splitCommand(), csplitCommand(), curlCommand(), iconvCommand()],
    files: [envsubstCommand(), ...copyMoveCommands(), ...grepCommands(), rsyncCommand()],
    text: [...sedCommands(), ...textCommands(), ...pathNameCommands()],
    paths: [...linkCommands(), ...modeCommands(), fileCommand(), whichCommand(), ...testCommands(), pwdCommand()],
    sleep: sleepCommand(),
    shells: shellCommands(instrument),
    ttyShells: shellCommands(instrumentTty),
    programs: [...envCommands(), ...pythonCommands(), sqlite3Command(), perlCommand()],
  };
}

/**
 * Runs one request's script in a fresh just-bash over the sprite's VFS; never rejects (failures become exit 1).
 * With a TTY the script starts with `exec 2>&1`, so stderr joins stdout in the order it is written.
 */
async function runShell(
  sprite: SpriteContext,
  req: ExecRequest,
  pid: number,
  term: Terminal,
  stdin: Uint8Array,
  maxStdinBytes: number,
  limits: ShellLimits,
  ctl: {
    abort: AbortSignal;
    sleep: (ms: number) => Promise<void>;
    clock: Clock;
    sinks: OutputSinks;
    commands?: CustomCommand[];
    jobs: JobControl;
    /** The exec's own script: a syntax error in it runs the complete commands before it first, as bash does. */
    topLevel?: boolean;
    /** A line of the interactive shell (`$-` then says `himBHs`). */
    interactive?: boolean;
    /** A background job's copy of its shell (jobs.ts `SubshellState`), which the run starts from. */
    subshell?: Record<string, unknown>;
  },
): Promise<ExecResult | BashExecResult> {
  try {
    await installShellTurns(); // CPU-bound scripts share the event loop in time slices, so the API still answers
    const bootedAt = sprite.bootedAt ?? ctl.clock.now();
    const exportedEnv = { ...exportedOf(req.env, sprite.name), ...(ctl.topLevel ? shellLevel(req) : {}) };
    const shared = sharedCommands();
    const bash = new Bash({
      fs: withOutputSinks(new BashFs(sprite.vfs, { commands: COMMAND_NAMES, now: () => ctl.clock.now(), proc: procInfo(sprite, req, pid, () => (ctl.clock.now() - bootedAt) / 1000), tty: req.tty, capabilities: !req.service }), ctl.sinks, req.tty),
      cwd: req.dir,
      // The names of the request's environment are the exported ones (just-bash exports the constructor's names),
      // but for bash's own variables carried over from a previous line or into a job (`IFS`, `OSTYPE`…).
      env: exportedEnv,
      // An option a command lacks is a loud refusal, never GNU's "invalid option" (loud-options.ts).
      // GNU's `--help`/`--version` texts come first for every coreutils program (gnu-help.ts).
      // GNU's quoting of file names in diagnostics (diagnostic-names.ts).
      customCommands: withQuotedDiagnostics(withGnuHelp(withLoudOptions([
        ...byteExactCommands(() => ctl.clock.now()),
        ...worldCommandsOf(sprite, ctl.clock),
        ...spritzerCommands(term, sprite.vfs),
        flockCommand(sprite.vfs),
        spriteEnvCommand(sprite),
        curlSpriteApiCommand(sprite),
        ...shared.system,
        tputCommand(term),
        ...shared.files,
        ...statCommands({ usedBytes: () => sprite.vfs.totalBytes(), files: () => sprite.vfs.fileCount() }),
        ...shared.text,
        ...diskCommands(() => sprite.vfs.totalBytes()),
        ...shared.paths,
        timeoutCommand(() => sprite.allocatePid()),
        shared.sleep,
        ...freeUptimeCommands(() => ctl.clock.now(), bootedAt),
        ...ctl.jobs.commands(),
        ...(req.tty ? shared.ttyShells : shared.shells),
        ...shared.programs,
        ...processCommands({
          processes: sprite.processes,
          self: sprite.processes?.get(pid) ?? { pid, ppid: 1, args: req.argv.join(' '), comm: commOf(req.argv[0] ?? 'sh'), startedAt: ctl.clock.now(), tty: req.tty ? 'pts/0' : null },
          allocatePid: () => sprite.allocatePid(),
          now: () => ctl.clock.now(),
        }),
        ...(ctl.commands ?? []),
      ], JUST_BASH_COMMANDS, EXACT_COMMANDS), JUST_BASH_COMMANDS), JUST_BASH_COMMANDS),
      // The WASM runtimes (CPython, QuickJS, SQLite) load on a command's first use, not here: a server whose
      // sprites never run `python3` never pays their start time and memory (docs/fidelity.md "Deliberate
      // differences", Shell limits).
      python: true,
      // js-exec's worker runs plain JavaScript on every supported Node (patches/just-bash/js-exec-before-node-22.mjs).
      // node's English number and date texts go on the intrinsics before js-exec freezes them (node-locale.ts).
      // Its promises note an unhandled rejection for node's report (node-promises.ts).
      javascript: { bootstrap: NODE_LOCALE + NODE_PROMISES },
      sleep: ctl.sleep,
      // The sprite user's ids (`$UID`, `test -O`/`-G`; accounts.ts) and `groups`, bash's `GROUPS` in bash's order,
      // which patches/just-bash/shell-variables.mjs reads (it is not in just-bash's type).
      processInfo: { pid, ppid: 1, uid: SPRITE_ACCOUNT.uid, gid: SPRITE_ACCOUNT.gid, groups: bashGroups(SPRITE_ACCOUNT) } as { pid: number; ppid: number; uid: number; gid: number },
      // Its global-patching sandbox would also block the injected clock's timers (`sleep`); commands here only
      // ever see the sprite's VFS, and the emulator runs its own user's commands.
      defenseInDepth: false,
      // A sprite's command runs until it ends or is signalled, not for a fixed wall-clock budget. just-bash caps
      // stdin at min(maxInputBytes, maxStringLength) (512 MiB, 64 MiB); spritzer's own stdin limit governs instead.
      executionLimits: {
        ...shellExecutionLimits(limits),
        ...(maxStdinBytes > SIXTY_FOUR_MIB ? { maxStringLength: maxStdinBytes, maxInputBytes: Math.max(maxStdinBytes, 512 * 1024 * 1024) } : {}),
      },
    });
    // Traps live in the shell's job control; the interpreter runs EXIT, ERR, RETURN and self-sent signals' traps
    // in the script's own context (patches/just-bash/traps-in-shell.mjs). Only the exec's own script ends the
    // shell: an interactive line or a trap handler leaves the EXIT trap to job-runner.ts.
    // The exec's own script also hands over what each top-level statement returned as it ends, so that output no
    // command wrote to a sink itself (a trap's) keeps its place (patches/just-bash/top-level-output-streams.mjs).
    const requested = shellScript(req);
    Object.assign((bash as unknown as { state: object }).state, ctl.jobs.shellState(), {
      // The script as written, whose lines `set -v` prints as they are read (patches/just-bash/verbose-lines.mjs).
      scriptText: requested,
      exitTrapAtEnd: ctl.topLevel === true,
      interactiveShell: ctl.interactive === true,
      // execve's E2BIG for the programs the script runs (patches/just-bash/exec-argument-list-too-long.mjs).
      execTooLong,
      // A sourced file, an `eval` string or a backquoted substitution that does not parse runs up to its syntax error
      // (syntax-errors.ts; patches/just-bash/when-sourced-syntax-error.mjs and the others that call it).
      recoverSyntax: readAtATime,
      // bash gives OPTIND the integer attribute (variables.c: `declare -i OPTIND="1"`), as `declare -i` lists it.
      integerVars: new Set(['OPTIND']),
      // `$_` starts as the environment's `_`, else the name the shell was started as (bash(1) "Special Parameters").
      ...(ctl.topLevel ? { lastArg: req.env._ ?? req.argv[0] ?? 'bash' } : {}),
      topLevelOutput: ctl.topLevel === true ? (result: ExecResult) => deliver(ctl.sinks, result) : undefined,
    });
    // bash runs the last command of its `-c` script in its own process, one level lower (shell-level.ts).
    const level = ctl.topLevel ? shellLevel(req).SHLVL : undefined;
    const own = ctl.topLevel ? recoverSyntax(requested) : requested;
    const original = withSeedRiskyScript(level === undefined ? own : lastLevelOf(`${level}\n${own}`), sprite.vfs, req.dir);
    // `&`, `$!`, `wait`, `jobs` reach the shell's job table (jobs.ts).
    const script = (req.tty ? instrumentTty : instrument)(original);
    return explainLimits(await bash.exec(req.tty ? `exec 2>&1; ${script}` : script, {
      env: { ...bashVariables(sprite.name), ...(ctl.topLevel ? { ...executionString(req), ...startingPathOf(req), ...fallbacksOf(req) } : {}), ...req.env, ...(ctl.topLevel ? shellLevel(req) : {}) },
      replaceEnv: true,
      // What the shell inherited is what it exports, with the PWD and OLDPWD bash exports itself; never a HOME or a
      // PATH it gave itself (just-bash's constructor exports those whatever it was given; `exportedNames`:
      // patches/just-bash/child-shell-exports.mjs).
      ...{ exportedNames: ['PWD', 'OLDPWD', ...Object.keys(exportedEnv)] },
      cwd: req.dir,
      stdin: Buffer.from(stdin).toString('latin1'),
      stdinKind: 'bytes',
      signal: ctl.abort,
      rawScript: true,
      // A program the request runs itself (argv, no shell) gets exactly req.env, in its order: no shell put a `_`
      // there or reordered it (patches/just-bash/underscore-variable.mjs, variables-export-order.mjs).
      ...(ctl.topLevel && planCommand(req).form === 'argv' ? { keepUnderscore: true, keepEnvOrder: true } : {}),
      // A background job starts as a copy of its shell (patches/just-bash/with-job-subshell-state.mjs).
      ...(ctl.subshell ? { spzSubshell: ctl.subshell } : {}),
    }), limits);
  } catch (err) {
    return text('', 1, describeShellError(err));
  }
}

/**
 * The `/proc` an exec's shell (pid `pid`) shows (proc.ts): `/proc/$$` is that shell, started as `req.argv` with
 * `req.env`; `/proc/PID` of the sprite's other processes (its background jobs) as its process table has them.
 */
function procInfo(sprite: SpriteContext, req: ExecRequest, pid: number, upSeconds: () => number): ProcInfo {
  const table = sprite.processes;
  return {
    pid,
    ppid: 1,
    hostname: sprite.name,
    upSeconds,
    // A command the shell forks has a pid of its own (given when its /proc/self is first read).
    allocatePid: () => sprite.allocatePid(),
    shell: { argv: req.argv, env: req.env },
    ...(table ? { processes: { get: (n: number) => table.get(n), pids: () => [...new Set([pid, ...table.list().map((p) => p.pid)])] } } : {}),
  };
}

/**
 * `BASH_EXECUTION_STRING` of a `bash -c` request: its script (bash(1) "Shell Variables"). A shell variable, never
 * exported; its presence also makes `$-` end in `c` (the interpreter's `$-`).
 */
function executionString(req: ExecRequest): Record<string, string> {
  const plan = planCommand(req);
  return plan.form === 'shell' ? { BASH_EXECUTION_STRING: plan.script } : {};
}

/**
 * The `PATH` of the shell a `bash -c`/`sh -c` request starts when its environment has none (a request's `env`
 * replaces the whole environment): the shell's own default, unexported (env-command.ts startingPath).
 */
function startingPathOf(req: ExecRequest): Record<string, string> {
  if (req.env.PATH !== undefined || planCommand(req).form !== 'shell') return {};
  return { PATH: startingPath(isBash(req.path ?? req.argv[0])) };
}

/** The variables a `bash -c` request's shell sets when its environment lacks them (env-command.ts BASH_FALLBACKS). */
function fallbacksOf(req: ExecRequest): Record<string, string> {
  return planCommand(req).form === 'shell' && isBash(req.path ?? req.argv[0]) ? BASH_FALLBACKS : {};
}

/**
 * `SHLVL` of the shell a `bash -c` request starts: one more than the request's own, exported (shell-level.ts).
 * Nothing for `sh -c` (dash leaves it as it is) or a request that runs a program without a shell.
 */
function shellLevel(req: ExecRequest): Record<string, string> {
  return planCommand(req).form === 'shell' && isBash(req.path ?? req.argv[0]) ? nextShellLevel(req.env) : {};
}

/** `SHLVL` of a `bash`/`sh` reading its commands from stdin or a terminal (dash: as the request has it). */
function interactiveLevel(req: ExecRequest): Record<string, string> {
  return isBash(req.path ?? req.argv[0]) ? nextShellLevel(req.env) : {};
}

/** `env` without the variables bash sets for itself, where they still hold bash's own values. */
function exportedOf(env: Record<string, string>, hostname: string): Record<string, string> {
  const own = bashVariables(hostname);
  return Object.fromEntries(Object.entries(env).filter(([name, value]) => own[name] !== value));
}

/** Sets `$?` for the line that follows (the interactive shell's previous status). */
const STATUS_COMMAND = '__spritzer_status';
/** Runs after a line of the interactive shell; reports `$?` and the directory (never reached after `exit`). */
const LINE_END_COMMAND = '__spritzer_line_end';

/**
 * Starts the interactive shell of a TTY `bash`/`sh` with no script (see tty.ts): each line runs as a
 * just-bash script with the previous line's variables, directory and `$?`, its output streamed as for any
 * command. A `signal` of INT interrupts the running line; any other fatal signal ends the shell.
 * @see docs/fidelity.md "Per engine" (TTY)
 */
function startInteractive(sprite: SpriteContext, req: ExecRequest, io: ExecIO, clock: Clock, maxStdinBytes: number, limits: ShellLimits): EngineProcess {
  const pid = sprite.allocatePid();
  const proc = new ProcessExit();
  const term: Terminal = { tty: true, rows: req.rows, cols: req.cols };
  const out = terminalIO(io, true);
  const write = (data: Uint8Array) => {
    if (proc.finished) return;
    try {
      io.stdout(data);
    } catch {
      // the caller's failure; the shell goes on
    }
  };
  const live = liveSinks(out, () => proc.finished);
  // Background jobs and traps live as long as the shell (job-runner.ts).
  const control = jobControlOf({ sprite, req, pid, term, clock, maxStdinBytes, limits, sinks: live }, (name) => handle.signal(name));
  const run = async (line: string, state: ShellState, abort: AbortSignal) => {
    const timers = new Set<TimerHandle>();
    abort.addEventListener('abort', () => {
      for (const t of timers) clock.clearTimeout(t);
      timers.clear();
    });
    let after: ShellState | null = null;
    const commands = [
      defineCommand(STATUS_COMMAND, async (args) => text('', Number(args[0]) || 0)),
      defineCommand(LINE_END_COMMAND, async (args, ctx) => {
        after = { env: {}, cwd: ctx.cwd, status: Number(args[0]) || 0 };
        return text('', after.status);
      }),
    ];
    let parses = true;
    try {
      parse(line);
    } catch {
      parses = false; // run as typed, so just-bash's syntax error names the user's line and column
    }
    const script = parses ? `${STATUS_COMMAND} ${state.status}\n${line}\n${LINE_END_COMMAND} "$?"` : line;
    const result = await runShell(sprite, { ...req, argv: ['sh', '-c', script], path: undefined, env: state.env, dir: state.cwd }, pid, term, new Uint8Array(0), maxStdinBytes, limits, {
      abort,
      sleep: (ms) =>
        new Promise<void>((resolve) => {
          const handle = clock.setTimeout(() => {
            timers.delete(handle);
            resolve();
          }, ms);
          timers.add(handle);
        }),
      clock,
      sinks: liveSinks(out, () => proc.finished || abort.aborted),
      commands,
      jobs: control.jobs,
      interactive: true,
    });
    if (!abort.aborted && !proc.finished) {
      // Output just-bash kept to the end (a syntax error, an `exit` inside a compound command).
      if (result.stdout) out.stdout(stdoutBytes(result));
      if (result.stderr) out.stdout(new TextEncoder().encode(result.stderr));
    }
    const ended = after as ShellState | null;
    if (ended === null) {
      // No line end: `exit` (or `set -e`) ended the shell, unless the line did not parse.
      if (!parses) return { exitCode: result.exitCode, state: { ...state, status: result.exitCode } };
      return { exitCode: result.exitCode, state: null };
    }
    const env = { ...('env' in result ? result.env : state.env) };
    delete env['?'];
    return { exitCode: result.exitCode, state: { env, cwd: ended.cwd, status: ended.status } };
  };
  const shell = new InteractiveShell(
    { write, run, finish: (code) => void control.end(code).then((c) => proc.finish(c)), home: req.env.HOME ?? '/home/sprite', hostname: sprite.name },
    { env: { ...req.env, ...interactiveLevel(req) }, cwd: req.dir, status: 0 },
  );
  queueMicrotask(() => shell.start());
  const handle: EngineProcess = {
    pid,
    exit: proc.exit,
    writeStdin: (data) => shell.input(data),
    endStdin: () => shell.eof(),
    resize(cols, rows) {
      term.cols = cols;
      term.rows = rows;
    },
    signal(name) {
      if (name === 'INT' || name === 'SIGINT' || name === '2') {
        shell.interrupt();
        void control.runHandler('INT');
        return;
      }
      if (proc.finished || control.signal(name, () => shell.stop(), (code) => proc.finish(code))) return;
      if (!proc.signal(name)) return;
      shell.stop();
      control.release();
    },
  };
  return handle;
}

/**
 * Sinks that pass a running command's output to `out` at once, and drop it once the process has ended (killed).
 * Throws from `out` are the caller's failure and are not let into just-bash.
 */
function liveSinks(out: OutputSinks, finished: () => boolean): OutputSinks {
  const guard = (fn: (d: Uint8Array) => void) => (data: Uint8Array) => {
    if (finished()) return;
    try {
      fn(data);
    } catch {
      // the process still runs; its exit still settles
    }
  };
  return { stdout: guard((d) => out.stdout(d)), stderr: guard((d) => out.stderr(d)) };
}

/**
 * The stdout of a just-bash result as bytes: a `bytes` result is a latin1 byte string, a `text` one is UTF-8
 * encoded. Same bytes as just-bash's `stdoutAsBytes`, but converted natively in O(n): that helper builds its byte
 * string one character at a time, which took seconds and hundreds of MiB of garbage for a 60 MiB `cat`.
 */
export function stdoutBytes(result: ExecResult): Buffer {
  // Text may hold bytes that are not UTF-8, each kept as U+DC00 + byte (shell-text.ts).
  return stdoutKind(result) === 'bytes' ? Buffer.from(result.stdout, 'latin1') : shellTextBytes(result.stdout);
}
