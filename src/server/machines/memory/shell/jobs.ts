/**
 * Job control of the `shell` engine: background jobs (`cmd &`, `$!`, `wait`, `jobs`, `kill`, `disown`) and traps
 * (`trap … EXIT|TERM|INT|HUP|…`). It owns the script rewrite that routes these through its own commands, one
 * shell's job table and trap table, and `kill`/`trap` semantics. It does not run scripts nor deliver output:
 * engine.ts gives it a launcher that runs a job's script as its own just-bash execution over the sprite's VFS.
 * @see docs/fidelity.md "Deliberate differences" (Shell engine job control); https://www.gnu.org/software/bash/manual/html_node/Job-Control-Builtins.html
 */
import { notOnPath, programNotFound, reportExecFailure } from './exec-failure.ts';
import { quoteName } from './ls-quote.ts';
import { defineCommand, type CustomCommand, type ExecResult } from 'just-bash';
import { parseScript, serializeScript, type ScriptNode as Node } from './script-ast.ts';
import { signalNumber, normalizeSignalName, SIGNAL_NUMBERS } from '../../../../protocol/signals.ts';
import { shellQuote } from '../argv.ts';
import { SANDBOX_HINT } from './world.ts';
import { commOf, type ProcessTable } from '../processes.ts';
import { execOnOwnStdin } from './inherited-stdin.ts';
import { programArgv } from './program-path.ts';

/**
 * The command a background statement is rewritten to: `__spritzer_bg [-d] SCRIPT` (`-d`: started by nohup/setsid;
 * SCRIPT with its newlines written `%0A`, see {@link oneLine}).
 */
export const BG_COMMAND = '__spritzer_bg';
/** `wait` is a just-bash builtin that returns at once; scripts call this instead. */
export const WAIT_COMMAND = '__spritzer_wait';
/** `jobs` (just-bash has none). */
export const JOBS_COMMAND = '__spritzer_jobs';
/** `disown`. */
export const DISOWN_COMMAND = '__spritzer_disown';
/** Marks that a trap handler ran to its end (did not call `exit`). */
export const TRAP_END_COMMAND = '__spritzer_trap_end';
/** The shell variable `$!` is rewritten to (just-bash keeps `$!` at 0 and offers no way to set it). */
export const BANG_VARIABLE = '__spritzer_bang';
/** Names of every command {@link JobControl.commands} defines (engine.ts gives each a `/bin` stub). */
export const JOB_COMMAND_NAMES: readonly string[] = [BG_COMMAND, WAIT_COMMAND, JOBS_COMMAND, DISOWN_COMMAND, TRAP_END_COMMAND, 'kill', 'trap', 'nohup', 'setsid', 'fg', 'bg'];

const RENAMED: Record<string, string> = { wait: WAIT_COMMAND, jobs: JOBS_COMMAND, disown: DISOWN_COMMAND };
const DETACHERS = new Set(['nohup', 'setsid']);

type Part = { type: string; value?: string };

/**
 * Rewrites `script` so that job control reaches {@link JobControl}: every statement ending in `&` (at any depth:
 * top level, in a list, a loop, a function body) becomes `__spritzer_bg [-d] 'STATEMENT'`, `$!` becomes
 * `$__spritzer_bang`, and commands named `wait`, `jobs`, `disown` are renamed to this module's. A script that does
 * not parse, or mentions none of these, is returned unchanged (just-bash then reports the syntax error itself).
 */
export function rewriteJobControl(script: string): string {
  if (!/[&!]|wait|jobs|disown/.test(script)) return script;
  const ast = parseScript(script);
  if (!ast) return script;
  let changed = false;
  visit(ast, (node) => {
    if (node.type === 'Statement' && node.background === true) {
      changed = true;
      node.background = false;
      const detached = isDetached(node);
      // The job's text keeps its commands on their lines (the lines before are empty), so its $LINENO and messages
      // count as bash's do; it is passed on one line, so the script written back keeps its lines too.
      const text = serializeScript({ type: 'Script', statements: [{ ...node, pipelines: node.pipelines, operators: node.operators }] }, true);
      const args = [...(detached ? [word([{ type: 'Literal', value: '-d' }])] : []), word(quoted(oneLine(text)))];
      const line = (((node.pipelines as Node[] | undefined)?.[0]?.commands as Node[] | undefined)?.[0] as { line?: number } | undefined)?.line;
      node.pipelines = [{ type: 'Pipeline', commands: [{ type: 'SimpleCommand', name: word([{ type: 'Literal', value: BG_COMMAND }]), args, assignments: [], redirections: [], line }], negated: false, timed: false, timePosix: false }];
      node.operators = [];
      return false;
    }
    if (node.type === 'ParameterExpansion' && (node.parameter === '!' || (node.parameter === '' && (node.operation as Node | null)?.type === 'Indirection'))) {
      changed = true;
      // `${!}` and `${!:+set}` parse as an indirection of nothing, whose inner operation is the one on `$!`.
      if (node.parameter === '') node.operation = (node.operation as { innerOp?: Node } | null)?.innerOp ?? null;
      node.parameter = BANG_VARIABLE;
    }
    if (node.type === 'SimpleCommand') {
      const parts = (node.name as { parts?: Part[] } | null)?.parts;
      const renamed = parts?.length === 1 && parts[0]!.type === 'Literal' ? RENAMED[parts[0]!.value ?? ''] : undefined;
      if (renamed) {
        changed = true;
        parts![0]!.value = renamed;
      }
    }
    return true;
  });
  return changed ? serializeScript(ast) : script;
}

/** `text` without newlines (`%` as `%25`, a newline as `%0A`): a job's text quoted into the script adds no line to it. */
export const oneLine = (text: string): string => text.replace(/[%\n]/g, (c) => (c === '%' ? '%25' : '%0A'));
/** The text {@link oneLine} was given. */
export const fromOneLine = (text: string): string => text.replace(/%(25|0A)/g, (_, c: string) => (c === '25' ? '%' : '\n'));
const word = (parts: Part[]) => ({ type: 'Word', parts });
/** A single-quoted word for `text` (just-bash's serializer writes a quoted run as is: each `'` is an escaped one). */
const quoted = (text: string): Part[] => text.split("'").flatMap((run, j) => [...(j > 0 ? [{ type: 'Escaped', value: "'" }] : []), { type: 'SingleQuoted', value: run }]);

/**
 * What `ps` shows of a job that runs one program (`sleep 100`, `nohup python3 -m http.server 8000 >log 2>&1`):
 * the program's words (a `nohup`/`setsid` in front execs it, so it is not shown); undefined for anything else (a
 * pipeline, a list, a compound command: bash runs those in a subshell that `ps` shows as the shell itself).
 */
function jobProgram(text: string): { args: string; comm: string } | undefined {
  const statements = parseScript(text)?.statements;
  const pipelines = statements?.length === 1 ? (statements[0]!.pipelines as Node[] | undefined) : undefined;
  const commands = pipelines?.length === 1 ? (pipelines[0]!.commands as Node[] | undefined) : undefined;
  const command = commands?.length === 1 ? commands[0]! : undefined;
  if (command?.type !== 'SimpleCommand' || (command.assignments as unknown[] | undefined)?.length) return undefined;
  const words: string[] = [];
  for (const w of [command.name, ...((command.args as unknown[] | undefined) ?? [])]) {
    const parts = (w as { parts?: Part[] } | null)?.parts;
    if (!parts || parts.length === 0 || parts.some((p) => p.type !== 'Literal' && p.type !== 'SingleQuoted')) return undefined;
    words.push(parts.map((p) => p.value ?? '').join(''));
  }
  while (words.length > 1 && DETACHERS.has(words[0]!)) words.shift();
  return words.length > 0 ? { args: words.join(' '), comm: commOf(words[0]!) } : undefined;
}

function isDetached(statement: Node): boolean {
  const first = ((statement.pipelines as Node[] | undefined)?.[0]?.commands as Node[] | undefined)?.[0];
  const parts = (first?.name as { parts?: Part[] } | null | undefined)?.parts;
  return first?.type === 'SimpleCommand' && parts?.length === 1 && DETACHERS.has(parts[0]!.value ?? '');
}

/** Calls `fn` on every AST node below `root`, depth first, pre-order; `fn` returning false skips the node's children. */
function visit(root: unknown, fn: (node: Node) => boolean): void {
  if (Array.isArray(root)) {
    for (const item of root) visit(item, fn);
  } else if (root !== null && typeof root === 'object') {
    const node = root as Node;
    if (typeof node.type === 'string' && !fn(node)) return;
    for (const value of Object.values(node)) visit(value, fn);
  }
}

/**
 * Runs a job's script as its own execution and resolves with its exit code once it ends (never rejects). Its
 * output goes to the same sinks as the shell's, as it is produced. `signal` aborts it.
 */
export type JobLauncher = (job: { script: string; env: Record<string, string>; cwd: string; pid: number; signal: AbortSignal; subshell?: SubshellState }) => Promise<number>;

/**
 * What a job inherits of its shell beyond the variables' values, as the interpreter copies it
 * (patches/just-bash/with-job-subshell-state.mjs): functions, arrays, attributes, `set` and `shopt` options.
 */
export type SubshellState = Record<string, unknown>;

/** What a {@link JobControl} needs. */
export interface JobControlDeps {
  /** The next pid of the sprite's process table (`SpriteContext.allocatePid`). */
  allocatePid: () => number;
  /** Runs a job (see {@link JobLauncher}). */
  launch: JobLauncher;
  /** The pid of this shell (`$$`): `kill $$` signals the shell itself through `signalSelf`. */
  selfPid: number;
  /** The prefix of the engine's own redirection targets (its output sinks), hidden from `$BASH_COMMAND`. */
  hiddenRedirections?: string;
  /** Delivers a signal (name without `SIG`) to this shell's own process; absent: `kill $$` fails loudly. */
  signalSelf?: (name: string) => void;
  /**
   * The sprite's process table, with what `ps` shows of this shell: each job joins the table at its start, as a
   * child of this shell, and stays there after the shell ended; `kill` reaches any process in it. Absent: jobs are
   * known to this shell only.
   */
  table?: { processes: ProcessTable; now: () => number; shell: { args: string; comm: string; tty: string | null } };
  /**
   * Job control is on (the interactive shell). Off, the background jobs of a non-interactive shell ignore INT and
   * QUIT (bash(1) "SIGNALS": "If job control is not in effect, asynchronous commands ignore SIGINT and SIGQUIT"), so
   * `kill -INT $!` leaves the job running.
   */
  jobControl?: boolean;
}

/** One background job. */
interface Job {
  id: number;
  pid: number;
  text: string;
  detached: boolean;
  /** Exit status once ended (128+n when ended by signal n). */
  status: number | null;
  done: Promise<number>;
  abort: AbortController;
  killedBy: number | null;
}

/** A handler: the command text (`''` ignores the signal), and the variables and directory it was set with. */
export interface Trap {
  action: string;
  env: Record<string, string>;
  cwd: string;
  /** The function call depth it was set at (0: outside functions): a RETURN trap fires for the function that set it. */
  depth?: number;
}

/**
 * What the interpreter's state carries for traps (patches/just-bash/traps-in-shell.mjs): the current trap table
 * (the shell's own at its top level, a reset copy in a subshell), the signals the script sent itself whose traps
 * run once the sending command is done, and the `trap` builtin, which works on the table of the state it is given.
 */
export interface ShellTrapState {
  traps: Map<string, Trap>;
  pendingSignals: string[];
  trapBuiltin: (state: { traps?: TrapTable; env: Map<string, string>; cwd: string; callDepth: number }, args: string[]) => ExecResult;
  /** Redirections to targets under this prefix are the engine's own: `$BASH_COMMAND` does not show them. */
  hiddenRedirections: string;
  /** A nested shell (`bash -c` run by a command) starts: its pid (`$$`), by which `kill` reaches it alone. */
  startShell: (state: NestedShell) => number;
  /** That nested shell ended. */
  endShell: (pid: number) => void;
}

/** A trap table; a subshell's (a reset copy) knows its parent's, shown by `trap -p` until the subshell sets a trap. */
type TrapTable = Map<string, Trap> & { _parent?: Map<string, Trap>; _changed?: boolean };

/** What `kill` needs of a nested shell's interpreter state: its current traps and its pending signals. */
interface NestedShell {
  traps?: Map<string, Trap>;
  pendingSignals?: string[];
}

/** Signals a trap may name: EXIT (0), ERR, RETURN, and the catchable signals spritzer delivers. */
const TRAPPABLE = new Set(['EXIT', 'ERR', 'RETURN', 'DEBUG', 'HUP', 'INT', 'QUIT', 'USR1', 'USR2', 'PIPE', 'ALRM', 'TERM']);
/** Trap names that are not signals (listed without `SIG`). */
const PSEUDO_SIGNALS = new Set(['EXIT', 'ERR', 'RETURN', 'DEBUG']);
/** Linux's signals by number (x86-64), as `kill -l` and `trap -l` name them: 1-31, then the real-time 34-64. */
const SIGNAL_NAMES: ReadonlyMap<number, string> = new Map([
  ...'HUP INT QUIT ILL TRAP ABRT BUS FPE KILL USR1 SEGV USR2 PIPE ALRM TERM STKFLT CHLD CONT STOP TSTP TTIN TTOU URG XCPU XFSZ VTALRM PROF WINCH IO PWR SYS'
    .split(' ')
    .map((name, i): [number, string] => [i + 1, name]),
  ...Array.from({ length: 31 }, (_, i): [number, string] => [34 + i, i === 0 ? 'RTMIN' : i < 16 ? `RTMIN+${i}` : i === 30 ? 'RTMAX' : `RTMAX-${30 - i}`]),
]);
/** bash's listing of every signal (`kill -l`, `trap -l`): ` 1) SIGHUP` entries, five to a line, tab-separated. */
const SIGNAL_TABLE = (() => {
  const entries = [...SIGNAL_NAMES].map(([n, name]) => `${String(n).padStart(2)}) SIG${name}`);
  return entries.map((e, i) => e + ((i + 1) % 5 === 0 ? '\n' : '\t')).join('') + (entries.length % 5 === 0 ? '' : '\n');
})();
/**
 * procps-ng's `kill` program (Debian's /bin/kill) where it differs from bash's builtin: `-l`/`--list` alone lists
 * the names of signals 1-31 on lines of at most 80 columns, `-L`/`--table` as a table of seven to a line, and a
 * missing process is `kill: (PID): No such process`. Otherwise `builtin` (bash's answer) stands.
 * @deviation the message names the program `kill`, whatever path ran it (procps names it as it was run).
 * @see procps-ng kill.c, lib/signals.c (unix_print_signals, pretty_print_signals)
 */
function procpsKill(args: string[], builtin: ExecResult): ExecResult {
  const names = Array.from({ length: 31 }, (_, i) => (i === 28 ? 'POLL' : SIGNAL_NAMES.get(i + 1)!));
  if (args.length === 1 && (args[0] === '-l' || args[0] === '--list')) {
    let out = '';
    let pos = 0;
    names.forEach((name, i) => {
      if (i > 0) {
        if (pos > 73) (out += '\n'), (pos = 0);
        else (out += ' '), pos++;
      }
      out += name;
      pos += name.length;
    });
    return ok(`${out}\n`);
  }
  if (args.length === 1 && (args[0] === '-L' || args[0] === '--table')) {
    const cells = names.map((name, i) => `${String(i + 1).padStart(2)} ${name}`);
    // Every cell but a line's seventh is padded to 11 columns, the last one too, before the final newline.
    return ok(`${cells.map((c, i) => ((i + 1) % 7 === 0 ? `${c}\n` : c.padEnd(11))).join('')}\n`);
  }
  return { ...builtin, stderr: builtin.stderr.replace(/^bash: kill: \((\d+)\) - No such process$/gm, 'kill: ($1): No such process') };
}

/** The numbers bash gives its trap-only names in `kill -l NAME` (after Linux's 64 signals, as its table orders them). */
const PSEUDO_NUMBERS: ReadonlyMap<string, number> = new Map([['EXIT', 0], ['DEBUG', 65], ['ERR', 66], ['RETURN', 67]]);
/**
 * `kill -l SIG…` as bash's display_signal_list answers it: a number (or an exit status 128+n) gives the name (0 is
 * `EXIT`; 32 and 33, which glibc keeps for itself, print nothing), a name (any case, with or without `SIG`; also
 * `EXIT`, `DEBUG`, `ERR`, `RETURN`) the number. An unknown one is `invalid signal specification` and status 1, and
 * the words after it are still answered.
 */
function signalLookup(specs: string[]): ExecResult {
  let out = '';
  let err = '';
  for (const spec of specs) {
    if (/^\d+$/.test(spec)) {
      const n = Number(spec) > 128 ? Number(spec) - 128 : Number(spec);
      const name = n === 0 ? 'EXIT' : SIGNAL_NAMES.get(n);
      if (name) out += `${name}\n`;
      else if (n !== 32 && n !== 33) err += `bash: kill: ${spec}: invalid signal specification\n`;
    } else {
      const bare = spec.toUpperCase().replace(/^SIG/, '');
      const n = PSEUDO_NUMBERS.get(spec.toUpperCase()) ?? [...SIGNAL_NAMES].find(([, name]) => name === bare)?.[0] ?? signalNumber(bare);
      if (n === undefined || n === null) err += `bash: kill: ${spec}: invalid signal specification\n`;
      else out += `${n}\n`;
    }
  }
  return { stdout: out, stderr: err, exitCode: err ? 1 : 0 };
}

/** Signals whose default action ends nothing: `kill -CONT` and friends succeed and change nothing. */
const HARMLESS = new Set([17, 18, 28]);
/** Variables just-bash sets itself, not handed to a job as environment. */
const SHELL_OWNED = new Set(['?', 'SHELLOPTS', 'BASHOPTS', 'OPTIND', 'PWD', 'OLDPWD']);

/** A shell's variables as the environment of a job or trap handler: without the ones just-bash sets itself. */
export function jobEnv(vars: Iterable<[string, string]> | Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Symbol.iterator in vars ? (vars as Iterable<[string, string]>) : Object.entries(vars)) if (!SHELL_OWNED.has(k)) env[k] = v;
  return env;
}

/** `result`, or status 143 (TERM) with no output as soon as `signal` aborts. */
async function untilAborted(result: Promise<ExecResult>, signal: AbortSignal | undefined): Promise<ExecResult> {
  if (!signal) return result;
  const killed: ExecResult = { stdout: '', stderr: '', exitCode: 143 };
  if (signal.aborted) return killed;
  let stop = () => {};
  const aborted = new Promise<ExecResult>((resolve) => {
    stop = () => resolve(killed);
    signal.addEventListener('abort', stop, { once: true });
  });
  try {
    return await Promise.race([result, aborted]);
  } finally {
    signal.removeEventListener('abort', stop);
  }
}

const ok = (stdout = ''): ExecResult => ({ stdout, stderr: '', exitCode: 0 });
const fail = (stderr: string, exitCode = 1): ExecResult => ({ stdout: '', stderr, exitCode });

/**
 * One shell's jobs and traps. Jobs get pids from the sprite's process table and numbers `%1`, `%2`… in start
 * order; an ended job stays listed (`jobs` shows `Done`) until it is waited for.
 * - `wait` (no operand: every job, status 0; `wait PID|%N…`: the last one's status; `wait -n`: the next to end);
 *   an unknown operand answers 127 (`pid N is not a child of this shell`, `%N: no such job`) as bash does.
 * - `kill [-s SIG|-n N|-SIG|-N] PID|%N…` ends a job of this shell (status 128+n), `kill -0` tests one, `kill $$`
 *   signals the shell itself; any other pid fails loudly (this shell cannot reach other processes), as do
 *   STOP/TSTP (no stopped jobs).
 * - `trap ACTION SIG…`, `trap - SIG`, `trap '' SIG`, `trap` (list), `trap -p`, `trap -l`, for EXIT, ERR, RETURN, DEBUG
 *   and HUP INT QUIT USR1 USR2 PIPE ALRM TERM. The interpreter runs EXIT, ERR, RETURN, DEBUG and the
 *   traps of signals the script sends itself in the shell's own context ({@link JobControl.shellState}); the
 *   traps of signals from outside run through job-runner.ts.
 * @see https://www.gnu.org/software/bash/manual/html_node/Job-Control-Builtins.html, docs/fidelity.md
 */
export class JobControl {
  private readonly jobs: Job[] = [];
  /**
   * The statuses of jobs already reaped, by pid: bash keeps them (its `bgpids`), so `wait PID` of a job that ended
   * and was reaped, by `jobs`, `wait PID` or `wait -n`, still answers its status; `wait` alone clears them.
   */
  private readonly reaped = new Map<number, number>();
  private readonly traps = new Map<string, Trap>();
  private readonly pendingSignals: string[] = [];
  private readonly nestedShells = new Map<number, NestedShell>();

  constructor(private readonly deps: JobControlDeps) {}

  /** The handler set for `signal` (`EXIT`, `TERM`, …; any spelling), or undefined when none (default action). */
  trapFor(signal: string): Trap | undefined {
    return this.traps.get(trapName(signal) ?? '');
  }

  /** Removes and returns the EXIT handler (it runs once). */
  takeExitTrap(): Trap | undefined {
    const trap = this.traps.get('EXIT');
    this.traps.delete('EXIT');
    return trap;
  }

  /**
   * The trap fields of an interpreter state that runs this shell's script (see {@link ShellTrapState}): the table
   * is this shell's own, so a trap the script sets is the one a signal from outside finds.
   */
  shellState(): ShellTrapState {
    return {
      traps: this.traps,
      pendingSignals: this.pendingSignals,
      trapBuiltin: (state, args) => this.trapCommand(args, jobEnv(state.env), state.cwd, state.traps ?? this.traps, state.callDepth),
      startShell: (state) => {
        const pid = this.deps.allocatePid();
        this.nestedShells.set(pid, state);
        return pid;
      },
      endShell: (pid) => void this.nestedShells.delete(pid),
      hiddenRedirections: this.deps.hiddenRedirections ?? '\0',
    };
  }

  /** Whether any job of this shell is still running. */
  get running(): number {
    return this.jobs.filter((j) => j.status === null).length;
  }

  /**
   * Ends every running job not started with `nohup`/`setsid` (nor disowned), as by `signal` (default HUP): what
   * happens to them when the shell itself is killed (the signal reaches its whole process group; `nohup` ignores
   * HUP). A shell that ends by itself leaves its jobs running, as Linux does: they stay in the sprite's table.
   * Each ended job's status becomes 128+n.
   */
  endAll(signal = 'HUP'): void {
    for (const job of this.jobs) if (!job.detached) this.kill(job, signalNumber(signal) ?? 1);
  }

  /** The commands this shell's script calls (see the class docs); later in `customCommands` than the world's. */
  commands(): CustomCommand[] {
    return [
      defineCommand(BG_COMMAND, async (args, ctx) => {
        const detached = args[0] === '-d';
        const script = fromOneLine(args[detached ? 1 : 0] ?? '');
        // A job is a subshell: it starts from a copy of the shell as it is now (bash(1) "COMMAND EXECUTION ENVIRONMENT").
        const subshell = (ctx as { spzSubshellState?: () => SubshellState }).spzSubshellState?.();
        const pid = this.start(script, jobEnv(ctx.env), ctx.cwd, detached, subshell);
        await ctx.assignShellVariable?.(BANG_VARIABLE, String(pid));
        return ok();
      }),
      // A shell killed while it waits (`timeout 1 bash -c 'sleep 5 & wait'`) stops waiting at once, as a process does.
      defineCommand(WAIT_COMMAND, (args, ctx) => untilAborted(this.wait(args, (ctx as { spzCoprocStatus?: (pid: number) => number | undefined }).spzCoprocStatus), ctx.signal)),
      defineCommand(JOBS_COMMAND, async (args) => this.list(args)),
      defineCommand(DISOWN_COMMAND, async (args) => this.disown(args)),
      defineCommand(TRAP_END_COMMAND, async () => ok()),
      // What a non-interactive bash answers: there is no job control (no stopped jobs to resume).
      ...['fg', 'bg'].map((name) => defineCommand(name, async () => fail(`bash: ${name}: no job control\n`))),
      defineCommand('kill', async (args, ctx) => {
        const result = this.killCommand(args, (ctx as { spzBashPid?: number }).spzBashPid);
        // Run as a program (a path, env, xargs: patches/just-bash/tell-builtin-context.mjs), procps's kill.
        return (ctx as { builtin?: boolean }).builtin === false ? procpsKill(args, result) : result;
      }),
      defineCommand('trap', async (args, ctx) => {
        return this.trapCommand(args, jobEnv(ctx.env), ctx.cwd);
      }),
      ...['nohup', 'setsid'].map((name) =>
        defineCommand(name, async (args, ctx) => {
          const rest = name === 'setsid' ? args.filter((a, i) => !(i === 0 && a.startsWith('-'))) : args[0] === '--' ? args.slice(1) : args;
          if (rest.length === 0) return fail(`${name}: missing operand\n`, name === 'nohup' ? 125 : 1);
          // Their own execvp failure: nohup quotes the name always (quoteaf), util-linux's setsid not at all. The
          // program is never the shell's builtin of its name (program-path.ts).
          const program = rest[0]!;
          const failed = (why: string) => (name === 'nohup' ? `nohup: failed to run command ${quoteName(program, 'shell-escape-always')}: ${why}` : `setsid: failed to execute ${program}: ${why}`);
          if (await notOnPath(ctx.fs, ctx.cwd, program, ctx.env.get('PATH'))) return programNotFound(failed);
          return reportExecFailure(await execOnOwnStdin(ctx, (await programArgv(ctx, rest)).map(shellQuote).join(' '), { cwd: ctx.cwd }), program, failed);
        }),
      ),
    ];
  }

  /**
   * Starts `script` as a job; returns its pid.
   * `subshell`: what it inherits beyond the variables' values (functions, arrays, attributes, options).
   * @deviation A job gets empty stdin, and `$$` is the exec's; a `nohup`/`setsid` job's output after the exec ended
   * is dropped (no `nohup.out`).
   */
  start(script: string, env: Record<string, string>, cwd: string, detached: boolean, subshell?: SubshellState): number {
    const pid = this.deps.allocatePid();
    const abort = new AbortController();
    // bash numbers a job one past the highest in its table (1 once every job was reaped).
    const job: Job = { id: (this.jobs.at(-1)?.id ?? 0) + 1, pid, text: script.trim(), detached, status: null, done: Promise.resolve(0), abort, killedBy: null };
    job.done = this.deps
      .launch({ script, env, cwd, pid, signal: abort.signal, subshell })
      .catch(() => 1)
      .then((code) => {
        if (job.status === null) job.status = job.killedBy !== null ? 128 + job.killedBy : code;
        return job.status;
      });
    this.jobs.push(job);
    const table = this.deps.table;
    if (table) {
      table.processes.add({
        pid,
        ppid: this.deps.selfPid,
        ...(jobProgram(job.text) ?? table.shell),
        startedAt: table.now(),
        tty: table.shell.tty,
        signal: (name) => this.kill(job, signalNumber(name) ?? 9),
        exit: job.done,
      });
    }
    return pid;
  }

  private kill(job: Job, n: number): void {
    if (job.status !== null) return;
    job.killedBy = n;
    job.status = 128 + n;
    job.abort.abort();
  }

  private find(spec: string): Job | undefined | null {
    if (spec === '%%' || spec === '%+' || spec === '%') return this.jobs.at(-1) ?? null;
    if (spec === '%-') return this.jobs.at(-2) ?? null;
    if (/^%\d+$/.test(spec)) return this.jobs.find((j) => j.id === Number(spec.slice(1))) ?? null;
    if (/^\d+$/.test(spec)) return this.jobs.find((j) => j.pid === Number(spec));
    return null;
  }

  private forget(job: Job): void {
    const i = this.jobs.indexOf(job);
    if (i >= 0) this.jobs.splice(i, 1);
    if (job.status !== null) this.reaped.set(job.pid, job.status);
  }

  /** `wait`; `coprocStatus` gives the status of the shell's coprocesses (patches/just-bash/coproc.mjs) by pid. */
  private async wait(args: string[], coprocStatus?: (pid: number) => number | undefined): Promise<ExecResult> {
    // `--` ends the options (getopt), as for any builtin.
    const dashes = args.indexOf('--');
    const options = dashes < 0 ? args : args.slice(0, dashes);
    const operands = [...options.filter((a) => a !== '-f'), ...(dashes < 0 ? [] : args.slice(dashes + 1))];
    if (operands[0] === '-n') {
      const running = this.jobs.filter((j) => j.status === null);
      const ended = this.jobs.find((j) => j.status !== null);
      if (ended) {
        this.forget(ended);
        return { ...ok(), exitCode: ended.status! };
      }
      if (running.length === 0) return { ...ok(), exitCode: 127 };
      const job = await Promise.race(running.map((j) => j.done.then(() => j)));
      this.forget(job);
      return { ...ok(), exitCode: job.status! };
    }
    if (operands.length === 0) {
      const all = [...this.jobs];
      await Promise.all(all.map((j) => j.done));
      for (const j of all) this.forget(j);
      // bash's `wait` without operands also forgets the statuses it kept of reaped jobs.
      this.reaped.clear();
      return { ...ok(), stderr: all.map((j) => this.deathNotice(j)).join('') };
    }
    let stderr = '';
    let exitCode = 0;
    for (const spec of operands) {
      const job = this.find(spec);
      const kept = /^\d+$/.test(spec) ? (this.reaped.get(Number(spec)) ?? coprocStatus?.(Number(spec))) : undefined;
      if (!job && kept !== undefined) {
        exitCode = kept;
        continue;
      }
      if (!job) {
        const known = spec.startsWith('%') || /^\d+$/.test(spec);
        stderr += spec.startsWith('%') ? `bash: wait: ${spec}: no such job\n` : known ? `bash: wait: pid ${spec} is not a child of this shell\n` : `bash: wait: \`${spec}': not a pid or valid job spec\n`;
        // A word that is no pid or job spec is a usage error (1); a pid or job the shell does not have, 127.
        exitCode = known ? 127 : 1;
        continue;
      }
      exitCode = await job.done;
      this.forget(job);
      stderr += this.deathNotice(job);
    }
    return { stdout: '', stderr, exitCode };
  }

  /**
   * What a non-interactive bash reports on stderr when it reaps a job a signal killed: `bash: PID SIGNAL-TEXT
   * COMMAND` (the line is placed by the caller's error placement), except for SIGINT, SIGTERM and SIGPIPE (bash's
   * default DONT_REPORT_SIGTERM/DONT_REPORT_SIGPIPE) and a signal the shell traps. Empty for any other job.
   * @see bash's jobs.c notify_of_job_status (JDEAD, JLIST_NONINTERACTIVE)
   */
  private deathNotice(job: Job): string {
    const n = job.killedBy;
    if (n === null || n === 2 || n === 13 || n === 15) return '';
    const name = Object.entries(SIGNAL_NUMBERS).find(([, num]) => num === n)?.[0];
    if (name !== undefined && this.traps.has(name)) return '';
    return `bash: ${String(job.pid).padStart(5)} ${signalTitle(n).padEnd(24)}${job.text}\n`;
  }

  /** `jobs [-l|-p|-r|-s]`: `[N]+  Running                 TEXT &`, as bash prints them; ended jobs are then forgotten. */
  private list(args: string[]): ExecResult {
    const flags = args.join('');
    const last = this.jobs.at(-1);
    const previous = this.jobs.at(-2);
    let stdout = '';
    for (const job of [...this.jobs]) {
      if (flags.includes('r') && job.status !== null) continue;
      if (flags.includes('s')) continue;
      if (flags.includes('p')) {
        stdout += `${job.pid}\n`;
        continue;
      }
      const mark = job === last ? '+' : job === previous ? '-' : ' ';
      const state = job.status === null ? 'Running' : job.killedBy !== null ? signalTitle(job.killedBy) : job.status === 0 ? 'Done' : `Exit ${job.status}`;
      const pid = flags.includes('l') ? `${job.pid} ` : '';
      stdout += `[${job.id}]${mark}  ${pid}${state.padEnd(24)}${job.text}${job.status === null ? ' &' : ''}\n`;
      if (job.status !== null) this.forget(job);
    }
    return ok(stdout);
  }

  private disown(args: string[]): ExecResult {
    const targets = args.filter((a) => !a.startsWith('-') || a.startsWith('%'));
    const jobs = args.includes('-a') || targets.length === 0 ? (args.includes('-a') ? [...this.jobs] : this.jobs.slice(-1)) : targets.map((t) => this.find(t));
    for (const job of jobs) {
      if (!job) return fail(`bash: disown: ${targets[0]}: no such job\n`);
      job.detached = true;
      this.forget(job);
      // bash's `wait PID` of a job it disowned answers 0 at once.
      if (!this.reaped.has(job.pid)) this.reaped.set(job.pid, 0);
    }
    return ok();
  }

  /**
   * `kill`; `bashPid` is the `$BASHPID` of the shell running it: a subshell `( … )` signalling itself dies of the
   * signal (the result's `spzSelfSignal`, which the interpreter turns into the subshell's death:
   * patches/just-bash/with-subshell-killed.mjs).
   */
  private killCommand(args: string[], bashPid?: number): ExecResult & { spzSelfSignal?: number } {
    if (args.length === 0) return fail('kill: usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]\n', 2);
    if (args[0] === '-l' || args[0] === '-L') {
      // bash's option parser takes a `--` after `-l`; a word starting with `-` is an option, which lists them all.
      const specs = args.slice(args[1] === '--' ? 2 : 1);
      return specs.length > 0 && !specs[0]!.startsWith('-') ? signalLookup(specs) : ok(SIGNAL_TABLE);
    }
    let signal = 'TERM';
    let rest = args;
    if ((args[0] === '-s' || args[0] === '-n') && args.length > 1) {
      signal = args[1]!;
      rest = args.slice(2);
    } else if (args[0]!.startsWith('-') && args[0] !== '--') {
      signal = args[0]!.slice(1);
      rest = args.slice(1);
    } else if (args[0] === '--') rest = args.slice(1);
    const n = signal === '0' ? 0 : signalNumber(signal);
    if (n === null) return fail(`bash: kill: ${signal}: invalid signal specification\n`);
    if (n === 19 || n === 20) return fail(`kill: stopping a job (SIG${signal.toUpperCase().replace(/^SIG/, '')}) is not available in the shell engine; ${SANDBOX_HINT}\n`);
    if (rest.length === 0) return fail('kill: usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]\n', 2);
    let stderr = '';
    let exitCode = 0;
    let selfSignal: number | undefined;
    for (const spec of rest) {
      const nested = /^\d+$/.test(spec) ? this.nestedShells.get(Number(spec)) : undefined;
      if (!nested && bashPid !== undefined && bashPid !== this.deps.selfPid && /^\d+$/.test(spec) && Number(spec) === bashPid) {
        // A subshell's own $BASHPID: it dies of the signal once this command is done (not of a harmless one).
        if (n !== 0 && !HARMLESS.has(n)) selfSignal = n;
        continue;
      }
      if (nested) {
        // A nested shell signalled (its own `kill $$`): its trap runs once this command is done; without one, a
        // fatal signal ends that shell alone, with status 128+n.
        if (n === 0 || HARMLESS.has(n)) continue;
        const name = normalizeSignalName(String(n))!;
        const trap = n === 9 ? undefined : nested.traps?.get(name);
        if (trap?.action !== '') nested.pendingSignals?.push(trap ? name : `!${n}`);
        continue;
      }
      if (/^\d+$/.test(spec) && Number(spec) === this.deps.selfPid) {
        if (n === 0 || HARMLESS.has(n)) continue;
        // A trapped (or ignored) signal the shell sends itself: its handler runs once this command is done, and
        // the script goes on, as bash does.
        const trap = n === 9 ? undefined : this.traps.get(normalizeSignalName(String(n)) ?? '');
        if (trap) {
          if (trap.action !== '') this.pendingSignals.push(normalizeSignalName(String(n))!);
          continue;
        }
        if (!this.deps.signalSelf) {
          stderr += `kill: (${spec}) - signalling this shell is not available here; ${SANDBOX_HINT}\n`;
          exitCode = 1;
          continue;
        }
        this.deps.signalSelf(String(n));
        continue;
      }
      const job = this.find(spec);
      if (job === null || (job === undefined && !/^\d+$/.test(spec))) {
        stderr += spec.startsWith('%') ? `bash: kill: ${spec}: no such job\n` : `bash: kill: ${spec}: arguments must be process or job IDs\n`;
        exitCode = 1;
        continue;
      }
      if (job === undefined) {
        // Another process of the sprite: another exec's command, or a job an earlier exec left running.
        const other = this.deps.table?.processes.get(Number(spec));
        if (!other) {
          stderr += `bash: kill: (${spec}) - No such process\n`;
          exitCode = 1;
        } else if (n !== 0 && !HARMLESS.has(n)) other.signal(normalizeSignalName(String(n)) ?? 'TERM');
        continue;
      }
      if (job.status === null && !this.deps.jobControl && (n === 2 || n === 3)) continue;
      if (job.status !== null) {
        stderr += `bash: kill: (${job.pid}) - No such process\n`;
        exitCode = 1;
        continue;
      }
      if (n !== 0 && !HARMLESS.has(n)) this.kill(job, n);
    }
    return { stdout: '', stderr, exitCode, ...(selfSignal !== undefined ? { spzSelfSignal: selfSignal } : {}) };
  }

  private trapCommand(args: string[], env: Record<string, string>, cwd: string, table: TrapTable = this.traps, depth = 0): ExecResult {
    if (args[0] === '-l') return ok(SIGNAL_TABLE);
    if (args.length === 0 || args[0] === '-p') {
      const only = args.slice(1).map((s) => trapName(s));
      const bad = args.slice(1).find((s) => trapName(s) === null);
      if (bad !== undefined) return fail(`bash: trap: ${bad}: invalid signal specification\n`);
      // A subshell that set no trap yet shows its parent's (bash: `saved=$(trap -p)`), and so does a subshell of it
      // (`( echo "$(trap -p)" )`): the nearest table up the chain that set one, else the shell's own.
      let shown = table;
      while (shown._parent && !shown._changed) shown = shown._parent as TrapTable;
      let stdout = '';
      for (const [sig, trap] of shown) {
        if (only.length === 0 || only.includes(sig)) stdout += `trap -- ${shellQuote(trap.action)} ${PSEUDO_SIGNALS.has(sig) ? sig : `SIG${sig}`}\n`;
      }
      return ok(stdout);
    }
    let action: string | null = args[0]!;
    let signals = args.slice(1);
    if (action === '--') {
      action = args[1] ?? '';
      signals = args.slice(2);
    }
    if (signals.length === 0) {
      if (action === '-') return fail('trap: usage: trap [-lp] [[arg] signal_spec ...]\n', 2);
      // `trap SIG`: reset SIG (bash treats a lone signal operand this way)
      signals = [action];
      action = null;
    }
    if (action === '-') action = null;
    let stderr = '';
    let exitCode = 0;
    for (const s of signals) {
      const name = trapName(s);
      if (name === null) {
        stderr += `bash: trap: ${s}: invalid signal specification\n`;
        exitCode = 1;
        continue;
      }
      if (!TRAPPABLE.has(name)) {
        stderr += `trap: ${s}: not available in the shell engine (only EXIT, ERR, RETURN, DEBUG, HUP, INT, QUIT, USR1, USR2, PIPE, ALRM and TERM reach a script); ${SANDBOX_HINT}\n`;
        exitCode = 1;
        continue;
      }
      table._changed = true;
      if (action === null) table.delete(name);
      else table.set(name, { action, env, cwd, depth });
    }
    return { stdout: '', stderr, exitCode };
  }
}

/** `EXIT`, `0`, `TERM`, `SIGTERM`, `15`, `ERR` → the canonical name; null when unknown. */
function trapName(s: string): string | null {
  const u = s.toUpperCase();
  if (u === 'EXIT' || u === '0') return 'EXIT';
  if (u === 'ERR' || u === 'DEBUG' || u === 'RETURN') return u;
  return normalizeSignalName(s);
}

/** The state `jobs` shows for a job ended by signal n (strsignal's text: `Terminated`, `Killed`, `Hangup`, …). */
function signalTitle(n: number): string {
  const titles: Record<number, string> = { 1: 'Hangup', 2: 'Interrupt', 3: 'Quit', 9: 'Killed', 10: 'User defined signal 1', 12: 'User defined signal 2', 14: 'Alarm clock', 15: 'Terminated' };
  return titles[n] ?? `Signal ${n}`;
}
