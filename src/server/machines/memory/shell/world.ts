/**
 * The Linux world around the `shell` engine's just-bash: the commands spritzer adds or corrects (`rm` of links,
 * `ls -l` with real modes and owners, `hostname`, `uname`, `node`, `/dev/stdin` operands), the loud failures for
 * what only a real engine can do (`curl`, `make`…; job control is jobs.ts's; `git` is git-command.ts's), and the execution
 * limits (`--shell-max-commands`, `--shell-timeout`). It does not run scripts, collect stdin or deliver output
 * (engine.ts does), and holds no state between commands.
 * @see docs/fidelity.md "What the shell engine cannot do"; docs/limits.md
 */
import { nodeProgram, staticRefusal } from './node-prelude.ts';
import * as vm from 'node:vm';
import { randomBytes } from 'node:crypto';
import { withNodeOutputOrder } from './node-streams.ts';
import { compileNode } from './node-syntax.ts';
import { defineCommand, latin1FromBytes, type BashOptions, type CustomCommand, type ExecResult, type IFileSystem } from 'just-bash';

type ExecutionLimits = NonNullable<BashOptions['executionLimits']>;
import { shellQuote } from '../argv.ts';
import { lsCommand } from './ls-command.ts';
import { findCommand } from './find-command.ts';
import { touchCommand } from './touch-command.ts';
import { rmCommand } from './rm-command.ts';
import { errnoText } from './errno-text.ts';
import { dateCommand } from './date-command.ts';
import { gitCommand } from './git-command.ts';
import { MACHINE_ARCH } from './sysinfo-commands.ts';
import { KERNEL_RELEASE } from './proc.ts';
import { withLoopErrors } from './loop-errors.ts';
import { isStdinOperand } from './text-input.ts';
import { columnTable } from './column-table.ts';
import { revUndecodable } from './rev-bytes.ts';
import { unexpandArgs } from './unexpand-args.ts';
import { copierOnClosedStdin, fileReaderOnClosedStdin, jqOnClosedStdin, stdinIsClosed } from './closed-stdin.ts';
import { catOutputOrder, errorsFirst, OrderedOutput } from './output-order.ts';

/** The hint every loud failure ends with. */
export const SANDBOX_HINT = 'run spritzer with --exec sandbox';

export { DEFAULT_SHELL_LIMITS, type ShellLimits } from '../../../config/shell-limits.ts';
import type { ShellLimits } from '../../../config/shell-limits.ts';
import { localeQuote } from './gnu-quote.ts';
import { catRunsForever, untilSignalled } from './endless-output.ts';
import { deviceBytes } from './devices.ts';
import { DECOMPRESS_MAX_BYTES } from './decompress-limit.ts';
import { execOnOwnStdin } from './inherited-stdin.ts';

/**
 * How deep shell functions may call each other. bash sets no limit (FUNCNEST unset) and runs thousands deep on its
 * 8 MiB stack; here each level holds its scopes in the server's memory (a recursion through a pipeline, about 35 KB
 * a level), so the depth is bounded to keep one exec's memory small.
 * @deviation past this depth the function call fails loudly ({@link explainLimits}) where bash goes on.
 */
export const SHELL_MAX_CALL_DEPTH = 1000;

/**
 * The just-bash `executionLimits` for `limits`: every iteration count follows `maxCommands`, the wall time follows
 * `timeoutMs` (0 → none); the interpreters (python3, sqlite3, js-exec) get the same time limit.
 * @see node_modules/just-bash/dist/limits.d.ts
 */
export function shellExecutionLimits(limits: ShellLimits): ExecutionLimits {
  const n = limits.maxCommands;
  const ms = limits.timeoutMs > 0 ? limits.timeoutMs : Infinity;
  const interp = Number.isFinite(ms) ? ms : 2 ** 31 - 1;
  return {
    maxCommandCount: n,
    maxLoopIterations: n,
    maxAwkIterations: n,
    maxSedIterations: n,
    maxJqIterations: n,
    maxWorkUnits: Math.max(n * 10, 1_000_000),
    maxCallDepth: SHELL_MAX_CALL_DEPTH,
    maxExecutionTimeMs: ms,
    maxPythonTimeoutMs: interp,
    maxSqliteTimeoutMs: interp,
    maxJsTimeoutMs: interp,
    // tar's extraction (with -z/-j/-J) stops where any other decompression does (decompress-limit.ts).
    maxArchiveBytes: DECOMPRESS_MAX_BYTES,
    maxArchiveEntryBytes: DECOMPRESS_MAX_BYTES,
  };
}

/**
 * A result whose stderr names a just-bash limit gets one more line saying which spritzer flag raises it:
 * `sh: the shell engine ended this command after <N> commands (--shell-max-commands); raise it or run spritzer
 * with --exec sandbox`, or the same with `after <ms> ms (--shell-timeout)` and exit 124 for the time limit; a
 * function nested deeper than {@link SHELL_MAX_CALL_DEPTH}, or subshells nested deeper than theirs
 * (patches/just-bash/subshell-depth.mjs), say so. Other results are returned unchanged.
 */
export function explainLimits(result: ExecResult, limits: ShellLimits): ExecResult {
  const err = result.stderr;
  if (/execution time|time limit|timeout exceeded|timed out|execution deadline/i.test(err) && result.exitCode !== 0 && limits.timeoutMs > 0) {
    const line = `sh: the shell engine ended this command after ${limits.timeoutMs} ms (--shell-timeout); raise it or ${SANDBOX_HINT}\n`;
    return { ...result, stderr: `${err}${line}`, exitCode: 124 };
  }
  if (/(command count|iteration limit|iterations? exceeded|too many commands|work unit)/i.test(err) && result.exitCode !== 0) {
    // A limit just-bash states below the flag's value is one of its own (e.g. `seq` also stops at its array cap).
    const stated = /limit exceeded \((\d+)\)/i.exec(err);
    const own = stated !== null && Number(stated[1]) < limits.maxCommands;
    const line = own
      ? `sh: the shell engine ended this command at a limit of ${stated[1]} of its own, which --shell-max-commands does not raise; ${SANDBOX_HINT}\n`
      : `sh: the shell engine ended this command after ${limits.maxCommands} commands (--shell-max-commands); raise it or ${SANDBOX_HINT}\n`;
    return { ...result, stderr: `${err}${line}`, exitCode: 126 };
  }
  if (/maximum recursion depth \(\d+\) exceeded/.test(err) && result.exitCode !== 0) {
    return { ...result, stderr: `${err}sh: the shell engine runs shell functions at most ${SHELL_MAX_CALL_DEPTH} calls deep; ${SANDBOX_HINT}\n` };
  }
  const subshells = /subshell: maximum depth \((\d+)\) exceeded/.exec(err);
  if (subshells && result.exitCode !== 0) {
    return { ...result, stderr: `${err}sh: the shell engine nests ( … ) subshells at most ${subshells[1]} deep; ${SANDBOX_HINT}\n` };
  }
  return result;
}

/**
 * Commands that exist only on a real machine: each answers `<name>: not available in the shell engine; run
 * spritzer with --exec sandbox` on stderr and exits 127.
 */
export const REAL_ENGINE_COMMANDS: readonly string[] = [
  'wget', 'make', 'cmake', 'gcc', 'g++', 'cc', 'c++', 'clang', 'ld', 'go', 'cargo', 'rustc', 'ruby',
  'gem', 'bundle', 'java', 'javac', 'deno', 'bun', 'npm', 'npx', 'yarn', 'pnpm', 'pip', 'pip3', 'apt', 'apt-get',
  'docker', 'podman', 'kubectl', 'ssh', 'scp', 'su', 'systemctl', 'service', 'top',
  'htop', 'killall', 'mount', 'umount', 'ping', 'nc', 'netstat', 'ss', 'ip',
  'vim', 'vi', 'nano', 'emacs', 'less', 'more', 'tmux', 'screen', 'strace', 'gdb', 'lsof', 'useradd',
  'lsblk', 'mkfifo', 'passwd',
  // Programs of a sprite's Ubuntu (coreutils and the usual tools) the shell engine does not have: loud, never
  // bash's silent `command not found`.
  'ptx', 'shred', 'mknod', 'chroot', 'chcon',
  'runcon', 'pinky', 'w', 'dircolors', 'watch', 'script', 'reset', 'man', 'info',
  'ldd', 'lsb_release', 'crontab', 'at', 'mail', 'dig', 'nslookup', 'host', 'openssl', 'dc', 'whereis', 'gawk', 'pathchk',
  // util-linux's process wrappers (scheduling, namespaces, limits, users): every Ubuntu has them.
  'ionice', 'taskset', 'chrt', 'unshare', 'prlimit', 'setpriv', 'nsenter', 'runuser',
];

/**
 * `node -p CODE` of an ES module (a top-level `await`, which has no completion value; a script's value is printed by
 * the node prelude) as code QuickJS runs (its sandbox has no `eval`): CODE's value printed with `console.log`. The
 * value is CODE's own when CODE is an expression, else its last statement's (`var x = 1; x + 1` prints 2), as node
 * prints the script's completion value. Node's compiler only checks the wrapped text's syntax here; nothing of CODE
 * runs outside QuickJS.
 * @param code the `-p` argument
 * @returns JavaScript source for `js-exec -c`
 */
export function printingScript(code: string): string {
  const expression = (text: string): boolean => {
    try {
      new vm.Script(`(${text}\n)`);
      return true;
    } catch {
      return false;
    }
  };
  if (expression(code)) return `console.log((${code}\n))`;
  const trimmed = code.replace(/[\s;]+$/, '');
  const cut = trimmed.lastIndexOf(';');
  if (cut >= 0 && expression(trimmed.slice(cut + 1))) return `${trimmed.slice(0, cut + 1)}\nconsole.log((${trimmed.slice(cut + 1)}\n))`;
  return `${code}\n;console.log(undefined)`;
}

/** A fresh tag for one node run's stderr writes (node-streams.ts): no program prints it by chance. */
const nodeMarker = (): string => `\u001b]spritzer-node;${randomBytes(6).toString('hex')};`;

/** What the world commands need to know about the sprite. */
export interface WorldContext {
  /** The sprite's name: `hostname`, `uname -n`. */
  hostname: string;
  /** Epoch ms (the injected clock), for `ls -l` dates. */
  now: () => number;
}

const ok = (stdout: string): ExecResult => ({ stdout, stderr: '', exitCode: 0 });
const fail = (stderr: string, exitCode = 1): ExecResult => ({ stdout: '', stderr, exitCode });
const notAvailable = (name: string, why = ''): ExecResult => fail(`${name}: not available in the shell engine${why}; ${SANDBOX_HINT}\n`, 127);

/**
 * Commands whose file operands may name `/dev/stdin`: spritzer rewrites it to `-` (their stdin); each with its short
 * options that take the next word as their value (no operand, when stdin is closed).
 */
const STDIN_READERS: Record<string, string> = { cat: '', fold: 'w', expand: 't', unexpand: 't', rev: '', column: 'cslnoNRHWETOrip' };

/**
 * The commands of this module, for just-bash's `customCommands`:
 * - `rm` removes a symlink itself (dangling, to a directory, with or without `-f`), never its target;
 * - `ls` and `find` are GNU's, over the sprite's files (ls-command.ts, find-command.ts);
 * - `hostname` and `uname` describe the sprite; `node` runs `js-exec` (or fails loudly when it cannot run);
 * - {@link REAL_ENGINE_COMMANDS} fail loudly (exit 127) naming `--exec sandbox` (`kill`, `trap`, `nohup` are
 *   jobs.ts's);
 * - `cat`, `fold`, `expand`, `unexpand` read their stdin for a `/dev/stdin` operand (`tac`, `nl`, `od`,
 *   `cut`, `base64` have their own modules), and these and `rev`, `column` fail on a closed one (closed-stdin.ts);
 * - `tee` reports the files it cannot open before its output, where stdout and stderr meet.
 * @see docs/fidelity.md "What the shell engine cannot do"
 */
export function worldCommands(world: WorldContext): CustomCommand[] {
  const commands: CustomCommand[] = [
    rmCommand(),
    lsCommand(world.now),
    findCommand(world.now),
    touchCommand(world.now),
    dateCommand(world.now),
    gitCommand(world.now, world.hostname),
    defineCommand('hostname', async (args) => hostname(args, world.hostname)),
    defineCommand('uname', async (args, ctx) => uname(args, world.hostname, ctx.env)),
    defineCommand('node', async (args, ctx) => {
      const flag = args[0];
      // The version the program itself sees (js-exec's `process.version`): a probe such as `node -v` must agree
      // with `node -p process.version`, and both have node's shape (`v22.0.0`, which version checks match).
      if (flag === '--version' || flag === '-v') return execOnOwnStdin(ctx, "js-exec -c 'console.log(process.version)'", { cwd: ctx.cwd });
      if ((flag === '-e' || flag === '--eval' || flag === '-p' || flag === '--print') && args.length >= 2) {
        const refused = staticRefusal(args[1]!, SANDBOX_HINT);
        if (refused) return fail(refused, 2);
        // V8's own verdict first: node's report of a syntax error, and whether the code is a script (node-syntax.ts).
        const compiled = compileNode(args[1]!);
        if (compiled.kind === 'error') return fail(compiled.report, 1);
        const print = flag === '-p' || flag === '--print';
        // -p prints the script's completion value once it has run (the event loop's first turn gets it); a module
        // has none, so its last expression is printed by the code itself.
        const code = print && compiled.kind === 'module' ? printingScript(args[1]!) : args[1]!;
        // node's process, console and stdin around the code (node-prelude.ts); the code reads its stdin from there.
        // node drops a `--` after the code from process.argv (it ends node's own options).
        const scriptArgs = args[2] === '--' ? args.slice(3) : args.slice(2);
        const marker = nodeMarker();
        const module = compiled.kind === 'module';
        const wrapped = nodeProgram(code, { stdin: latin1FromBytes(ctx.stdin), args: scriptArgs, hint: SANDBOX_HINT, marker, module, print: print && !module });
        return withNodeOutputOrder(await execOnOwnStdin(ctx, ['js-exec', ...(module ? [] : ['--script']), '-c', wrapped, ...args.slice(2)].map(shellQuote).join(' '), { cwd: ctx.cwd }), marker);
      }
      if (flag && !flag.startsWith('-')) {
        // A CommonJS script runs with the same node prelude as -e: process.argv is [execPath, its path, ...args],
        // __filename/__dirname are its own. ES modules and TypeScript go to js-exec as they are.
        const path = ctx.fs.resolvePath(ctx.cwd, flag);
        const source = /\.(mjs|ts|mts|cts)$/.test(flag) ? undefined : await ctx.fs.readFile(path).catch(() => undefined);
        if (source !== undefined && !staticRefusal(source, SANDBOX_HINT)) {
          // node skips a first `#!` line; kept as a comment so that line numbers stay the script's
          const code = source.startsWith('#!') ? `//${source}` : source;
          const compiled = compileNode(code, path);
          if (compiled.kind === 'error') return fail(compiled.report, 1);
          const marker = nodeMarker();
          const module = compiled.kind === 'module';
          const wrapped = nodeProgram(code, { stdin: latin1FromBytes(ctx.stdin), args: [path, ...args.slice(1)], hint: SANDBOX_HINT, file: path, marker, module });
          return withNodeOutputOrder(await execOnOwnStdin(ctx, ['js-exec', ...(module ? [] : ['--script']), '-c', wrapped, ...args.slice(1)].map(shellQuote).join(' '), { cwd: ctx.cwd }), marker);
        }
        return execOnOwnStdin(ctx, ['js-exec', ...args].map(shellQuote).join(' '), { cwd: ctx.cwd });
      }
      return notAvailable('node', ` for these arguments (only node -e, node -p and node FILE run, through js-exec)`);
    }),
    ...REAL_ENGINE_COMMANDS.map((name) => defineCommand(name, async () => notAvailable(name))),
    // GNU tee opens every file before it copies a byte: a file it cannot open is reported before any output.
    defineCommand('tee', async (args, ctx) => {
      const done = errorsFirst(await ctx.origCommand!(withoutIgnoreInterrupts(args)));
      return stdinIsClosed(ctx) ? copierOnClosedStdin('tee', done) : done;
    }),
    // jq reading a closed stdin fails silently with status 2 (closed-stdin.ts). jq writes its messages unbuffered and
    // its output through stdio, so where they meet its messages come first (exact for up to a buffer of output).
    defineCommand('jq', async (args, ctx) => (stdinIsClosed(ctx) ? jqOnClosedStdin(args) : null) ?? errorsFirst(await ctx.origCommand!(args))),
    ...Object.entries(STDIN_READERS).map(([name, valued]) =>
      defineCommand(name, async (args, ctx) => {
        // util-linux's rev and column open `-` as a file; the coreutils read stdin for it.
        const given = name === 'unexpand' ? unexpandArgs(args) : args;
        const mapped = name === 'rev' || name === 'column' ? given : given.map((a) => (isStdinOperand(a, false) ? '-' : a));
        const closed = stdinIsClosed(ctx) ? await fileReaderOnClosedStdin(name, mapped, (a) => ctx.origCommand!(a), valued) : null;
        if (closed) return closed;
        // `cat /dev/zero` into no pipe runs until a signal ends it (endless-output.ts).
        const endless = name === 'cat' ? catRunsForever(mapped, ctx) : null;
        if (endless) return untilSignalled(ctx, () => Buffer.from(deviceBytes(endless)).toString('latin1'));
        const table = name === 'column' ? await columnTable(mapped, ctx) : name === 'rev' ? await revUndecodable(mapped, ctx) : null;
        if (table) return table;
        let result = await withLoopErrors(await ctx.origCommand!(mapped), mapped, ctx.fs, ctx.cwd); // ELOOP worded as bash does (loop-errors.ts)
        result = await catOperandErrors(name, result, ctx.fs, ctx.cwd);
        // Where stdout and stderr meet: cat's messages come between the files (its error() flushes first).
        const order = name === 'cat' ? await catOutputOrder(result, mapped, ctx.fs, ctx.cwd, () => latin1FromBytes(ctx.stdin).length) : undefined;
        return order ? { ...result, outputOrder: order } : result;
      }),
    ),
  ];
  return commands;
}

/** GNU's message for a directory operand of `cat`: `cat: DIR: Is a directory` (just-bash said No such file or directory). */
async function catOperandErrors(name: string, result: ExecResult, fs: IFileSystem, cwd: string): Promise<ExecResult> {
  if (name !== 'cat' || !result.stderr) return result;
  const isDir = async (f: string) => (await fs.stat(fs.resolvePath(cwd, f)).catch(() => null))?.isDirectory === true;
  const lines = await Promise.all(result.stderr.split(/(?<=\n)/).map(async (line) => {
    const m = /^cat: (.+): No such file or directory\n$/.exec(line);
    return m && (await isDir(m[1]!)) ? `cat: ${m[1]}: Is a directory\n` : line;
  }));
  return { ...result, stderr: lines.join('') };
}

/**
 * `tee`'s argv without `-i`/`--ignore-interrupts` (also out of a cluster such as `-ai`): the shell engine's commands
 * get no SIGINT to ignore, so it changes nothing, and just-bash's tee does not know it.
 */
function withoutIgnoreInterrupts(args: string[]): string[] {
  const end = args.indexOf('--');
  return args.flatMap((a, i) => {
    if ((end >= 0 && i >= end) || !a.startsWith('-') || a === '-') return [a];
    if (a === '--ignore-interrupts') return [];
    if (a.startsWith('--')) return [a];
    const rest = a.slice(1).replace(/i/g, '');
    return rest ? [`-${rest}`] : [];
  });
}

/** GNU uname's long options, each with the letter it stands for. */
const UNAME_LONG: Record<string, string> = {
  all: 'a', 'kernel-name': 's', nodename: 'n', 'kernel-release': 'r', 'kernel-version': 'v', machine: 'm', processor: 'p',
  'hardware-platform': 'i', 'operating-system': 'o',
};

/**
 * Debian's `hostname [-s|-f|-d|-i]` (the last one given wins): the name, its short form, its DNS domain (nothing
 * at all when it has none) or the address `/etc/hosts` gives it (127.0.1.1, as a sprite's seed writes). The
 * options that need the network's addresses (`-I`, `-A`), NIS, or setting the name fail loudly.
 */
function hostname(args: string[], host: string): ExecResult {
  const LONG: Record<string, string> = { '--short': 's', '--fqdn': 'f', '--long': 'f', '--domain': 'd', '--ip-address': 'i', '--all-ip-addresses': 'I', '--all-fqdns': 'A', '--alias': 'a' };
  let form = '';
  for (const a of args) {
    const letters = LONG[a] ?? (/^-[a-zA-Z]+$/.test(a) ? a.slice(1) : null);
    if (letters === null) return notAvailable('hostname', ` with ${a}`);
    for (const c of letters) {
      if (!'sfdi'.includes(c)) return notAvailable('hostname', ` with -${c}`);
      form = c;
    }
  }
  const dot = host.indexOf('.');
  if (form === 'd') return ok(dot < 0 ? '' : `${host.slice(dot + 1)}\n`);
  if (form === 'i') return ok('127.0.1.1\n');
  return ok(`${form === 's' && dot >= 0 ? host.slice(0, dot) : host}\n`);
}

/**
 * `uname` with `-s -n -r -v -m -p -i -o -a` and their long names (any unambiguous prefix, as getopt_long takes
 * them); an unknown option or an operand is GNU's usage error, status 1.
 */
function uname(args: string[], host: string, env: Map<string, string>): ExecResult {
  // GNU uname on Linux knows no processor or hardware platform name: `-p` and `-i` print `unknown`, `-a` skips them.
  const fields: Record<string, string> = { s: 'Linux', n: host, r: KERNEL_RELEASE, v: '#1 SMP', m: MACHINE_ARCH, p: 'unknown', i: 'unknown', o: 'GNU/Linux' };
  const usage = (what: string): ExecResult => ({ stdout: '', stderr: `uname: ${what}\nTry 'uname --help' for more information.\n`, exitCode: 1 });
  const flags: string[] = [];
  for (const a of args) {
    if (a === '--help' || a === '--version') return { stdout: '', stderr: `uname: option ${a} is not available in the shell engine; ${SANDBOX_HINT}\n`, exitCode: 2 };
    if (a.startsWith('--') && a.length > 2) {
      const hits = Object.keys(UNAME_LONG).filter((n) => n === a.slice(2) || n.startsWith(a.slice(2)));
      const exact = hits.find((n) => n === a.slice(2));
      if (!exact && hits.length !== 1) return usage(hits.length ? `option '${a}' is ambiguous; possibilities:${hits.map((n) => ` '--${n}'`).join('')}` : `unrecognized option '${a}'`);
      flags.push(UNAME_LONG[exact ?? hits[0]!]!);
    } else if (a.startsWith('-') && a.length > 1) {
      for (const f of a.slice(1)) {
        if (!'asnrvmpio'.includes(f)) return usage(`invalid option -- '${f}'`);
        flags.push(f);
      }
    } else return usage(`extra operand ${localeQuote(env, a)}`);
  }
  if (flags.length === 0) return ok('Linux\n');
  const order = flags.includes('a') ? ['s', 'n', 'r', 'v', 'm', 'o'] : ['s', 'n', 'r', 'v', 'm', 'p', 'i', 'o'].filter((f) => flags.includes(f));
  return ok(`${order.map((f) => fields[f]).join(' ')}\n`);
}

/**
 * The line a script that just-bash aborted with a filesystem error ends with, as bash words it:
 * `sh: /x/y: No space left on device`, or `sh: <message>` for other errors. A redirection target that cannot be
 * opened fails only its command (patches/just-bash/redirection-open-errors.mjs); a filesystem error just-bash meets
 * anywhere else (writing a redirection's output, say) still ends the script.
 * @deviation bash fails only the command that met the error; just-bash aborts the script (exit 1).
 */
export function describeShellError(err: unknown): string {
  const { code, path } = err as { code?: string; path?: string };
  // bash would go on with the next command; the shell engine cannot, and says so (never a silent early end).
  const text = errnoText(code);
  if (path && text) return `sh: ${path}: ${text}\nsh: the shell engine ends the script at this filesystem error, where bash goes on; ${SANDBOX_HINT}\n`;
  return `sh: ${(err as Error).message}\n`;
}

/** Names of every command {@link worldCommands} may define (their `/bin` and `/usr/bin` stubs make them found on PATH). */
export const WORLD_COMMAND_NAMES: readonly string[] = [
  'rm', 'ls', 'find', 'touch', 'hostname', 'uname', 'node', 'js-exec', 'git', ...REAL_ENGINE_COMMANDS, ...Object.keys(STDIN_READERS),
];
