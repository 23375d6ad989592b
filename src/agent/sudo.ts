/**
 * `sudo` inside a sprite, mediated by the agent. bubblewrap sets `no_new_privs` on every process of a sandbox
 * sprite, so a setuid `sudo` can never raise privileges there; instead the `sudo` shim (`agent.mjs --sudo`, run
 * as the caller) asks the agent (root of the sprite's user namespace, with only its own capabilities, under the
 * seccomp filter) over the unix socket {@link SUDO_SOCKET_PATH}, which only processes inside the sprite (and the
 * host) can reach, to start the command as the target user. The connection speaks the agent protocol's process
 * frames on channel 0 (SPAWN, STDIN, STDIN_EOF, SIGNAL, RESIZE from the caller; STDOUT, STDERR, EXIT back), and
 * the agent runs the command with its own {@link Supervisor} (pipes, or a pseudo-terminal when the caller's stdin
 * is one). The command's root is therefore exactly the agent's root: never root on the host.
 * It owns the socket server, the client relay and `sudo`'s main; the command line and policy are sudo-options.ts.
 * @see docs/security.md "sudo", docs/fidelity.md "sudo"
 */
import { execFileSync } from 'node:child_process';
import { accessSync, constants as fsConstants, readFileSync, statSync } from 'node:fs';
import { connect, type Server, type Socket } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import { decodeResize, encodeFrame, encodeResize, FrameDecoder, FrameType, MAX_SPAWN_GROUPS, type SpawnMessage } from '../protocol/agent.ts';
import { Supervisor } from './supervisor.ts';
import { commandFor, lookupUser, parseSudoArgs, SUDO_USAGE, SudoUsageError, userGroups, type SudoRequest } from './sudo-options.ts';
import { listenApiSocket } from './api-socket.ts';

/** Where the agent listens for `sudo` requests (inside the sprite; mode 0666: every user of the sprite may sudo). */
export const SUDO_SOCKET_PATH = '/.sprite/sudo.sock';

/**
 * Serves one `sudo` connection: the first frame must be SPAWN (a {@link SpawnMessage}, uid/gid applied when
 * `dropPrivileges`, and its groups too when the run-as helper `runAs` starts it), then stdin, EOF, signal and resize
 * frames drive the process; its output and EXIT go back, and the connection ends after EXIT. When the caller goes away first, the command's process group is killed (as the
 * command of a killed exec is). Output pauses while the socket is congested. A malformed frame drops the connection.
 */
export function serveSudoConnection(socket: Socket, opts: { dropPrivileges: boolean; exitDrainMs: number; runAs?: string }): void {
  const decoder = new FrameDecoder();
  let started = false;
  let exited = false;
  const send = (type: FrameType, payload?: Uint8Array): void => {
    if (socket.destroyed || socket.writableEnded) return;
    if (!socket.write(encodeFrame(type, 0, payload))) supervisor.setPaused(true);
  };
  const supervisor = new Supervisor(
    {
      stdout: (_id, d) => send(FrameType.Stdout, d),
      stderr: (_id, d) => send(FrameType.Stderr, d),
      started: () => undefined,
      exit: (_id, code) => {
        exited = true;
        send(FrameType.Exit, Buffer.from(JSON.stringify({ code })));
        socket.end();
      },
    },
    { root: '', dropPrivileges: opts.dropPrivileges, runAs: opts.runAs, exitDrainMs: opts.exitDrainMs, sweepNamespace: false, logOwner: null },
  );
  socket.on('drain', () => supervisor.setPaused(false));
  socket.on('error', () => undefined);
  // The caller never half-closes (stdin EOF is a frame): its end means it is gone (the socket allows half-open).
  const gone = (): void => {
    if (started && !exited) void supervisor.killAll();
    socket.destroy();
  };
  socket.on('end', gone);
  socket.on('close', gone);
  socket.on('data', (chunk: Buffer) => {
    try {
      for (const f of decoder.push(chunk)) {
        if (f.type === FrameType.Spawn && !started) {
          started = true;
          supervisor.spawn(0, spawnMessage(JSON.parse(f.payload.toString('utf8'))));
        } else if (!started) throw new Error('the first frame must be SPAWN');
        else if (f.type === FrameType.Stdin) supervisor.writeStdin(0, f.payload);
        else if (f.type === FrameType.StdinEof) supervisor.endStdin(0);
        else if (f.type === FrameType.Signal) supervisor.signal(0, f.payload.toString('utf8'));
        else if (f.type === FrameType.Resize) supervisor.resize(0, decodeResize(f.payload).cols, decodeResize(f.payload).rows);
        else throw new Error(`unexpected frame type ${f.type}`);
      }
    } catch (err) {
      process.stderr.write(`spritzer-agent: sudo: ${(err as Error).message}; dropping the connection\n`);
      socket.destroy();
    }
  });
}

/** Checks the shape of a SPAWN payload (a bad one throws, dropping the connection). */
function spawnMessage(v: unknown): SpawnMessage {
  const m = v as SpawnMessage;
  const ok = m && Array.isArray(m.argv) && m.argv.length > 0 && m.argv.every((a) => typeof a === 'string') && typeof m.env === 'object' && m.env !== null
    && typeof m.dir === 'string' && Number.isInteger(m.uid) && Number.isInteger(m.gid) && m.uid >= 0 && m.gid >= 0
    && (m.groups === undefined || (Array.isArray(m.groups) && m.groups.length <= MAX_SPAWN_GROUPS && m.groups.every((g) => Number.isInteger(g) && g >= 0 && g < 2 ** 32 - 1)));
  if (!ok) throw new Error('malformed SPAWN');
  return { argv: m.argv, path: typeof m.path === 'string' ? m.path : undefined, env: m.env, dir: m.dir, tty: !!m.tty, rows: Number(m.rows) || 24, cols: Number(m.cols) || 80, uid: m.uid, gid: m.gid, ...(m.groups ? { groups: m.groups } : {}), stdin: m.stdin !== false };
}

/** Listens for `sudo` requests on `path` (see {@link serveSudoConnection}). Resolves with the server. */
export function listenSudo(path: string = SUDO_SOCKET_PATH, opts: { dropPrivileges: boolean; exitDrainMs: number; runAs?: string }): Promise<Server> {
  return listenApiSocket(path, (socket) => serveSudoConnection(socket, opts));
}

/** The caller's side of one relay: its streams, and the process whose signals are forwarded (`process`). */
export interface SudoClientIo {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  /** Emits the signals to forward (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2) and SIGWINCH. */
  signals: NodeJS.EventEmitter;
  /** The terminal size to report on SIGWINCH (TTY mode). */
  size?: () => { cols: number; rows: number };
}

const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT', 'SIGUSR1', 'SIGUSR2'] as const;

/**
 * Runs `spawn` through the agent at `socketPath`: stdin is sent as it is read (paused while the socket is
 * congested), output written as it comes, the forwarded signals and terminal resizes relayed; resolves with the
 * command's exit status (0–255; 128+n when killed by signal n), or 1 with a `sudo:` message on stderr when the agent
 * cannot be reached or goes away.
 */
export function runSudoClient(socketPath: string, spawn: SpawnMessage, io: SudoClientIo): Promise<number> {
  return new Promise((resolve) => {
    const socket = connect(socketPath);
    const decoder = new FrameDecoder();
    let done = false;
    const handlers: Array<[string, () => void]> = [];
    const finish = (code: number, message?: string): void => {
      if (done) return;
      done = true;
      if (message) io.stderr.write(`sudo: ${message}\n`);
      for (const [sig, h] of handlers) io.signals.removeListener(sig, h);
      io.stdin.pause();
      io.stdin.removeListener('data', onStdin);
      socket.destroy();
      resolve(code);
    };
    const send = (type: FrameType, payload?: Uint8Array): boolean => !socket.destroyed && socket.write(encodeFrame(type, 0, payload));
    const onStdin = (d: Buffer): void => {
      if (!send(FrameType.Stdin, d)) io.stdin.pause();
    };
    socket.on('drain', () => io.stdin.resume());
    socket.on('connect', () => {
      send(FrameType.Spawn, Buffer.from(JSON.stringify(spawn)));
      io.stdin.on('data', onStdin);
      io.stdin.once('end', () => send(FrameType.StdinEof));
      io.stdin.on('error', () => send(FrameType.StdinEof));
      for (const sig of FORWARDED) {
        const h = (): void => void send(FrameType.Signal, Buffer.from(sig.slice(3)));
        handlers.push([sig, h]);
        io.signals.on(sig, h);
      }
      if (spawn.tty && io.size) {
        const h = (): void => {
          const { cols, rows } = io.size!();
          send(FrameType.Resize, encodeResize(cols, rows));
        };
        handlers.push(['SIGWINCH', h]);
        io.signals.on('SIGWINCH', h);
      }
    });
    socket.on('data', (chunk: Buffer) => {
      let frames;
      try {
        frames = decoder.push(chunk);
      } catch (err) {
        return finish(1, (err as Error).message);
      }
      for (const f of frames) {
        if (f.type === FrameType.Stdout) {
          if (!io.stdout.write(f.payload)) {
            socket.pause();
            io.stdout.once('drain', () => socket.resume());
          }
        } else if (f.type === FrameType.Stderr) io.stderr.write(f.payload);
        else if (f.type === FrameType.Exit) return finish(Number((JSON.parse(f.payload.toString('utf8')) as { code: number }).code));
      }
    });
    socket.on('error', (err: NodeJS.ErrnoException) => finish(1, `cannot reach the sprite's agent at ${socketPath}: ${err.code ?? err.message}`));
    socket.on('close', () => finish(1, "the sprite's agent ended the command without an exit status"));
  });
}

/** Whether `path` is an executable regular file (as the caller sees it). */
function isExecutable(path: string): boolean {
  try {
    accessSync(path, fsConstants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * Puts the caller's terminal (stdin) in raw mode as sudo does (`stty raw -echo`: no echo, no line editing, no
 * output processing, so the command's own terminal is the only one that cooks), and returns the restore. Node's
 * own raw mode keeps output processing on, which would turn every `\r\n` of the command into `\r\r\n`; it is
 * the fallback when `stty` cannot run.
 */
function rawTerminal(): () => void {
  const stty = (args: string[]): string => execFileSync('stty', args, { stdio: ['inherit', 'pipe', 'ignore'] }).toString().trim();
  try {
    const saved = stty(['-g']);
    stty(['raw', '-echo']);
    return () => {
      try {
        stty([saved]);
      } catch {
        // the terminal is gone
      }
    };
  } catch {
    process.stdin.setRawMode(true);
    return () => process.stdin.setRawMode(false);
  }
}

/** What `sudo -l` prints: the sprite's policy (everything, as anyone, no password). */
function listText(user: string, host: string): string {
  return `Matching Defaults entries for ${user} on ${host}:\n    env_reset, secure_path=/usr/local/sbin\\:/usr/local/bin\\:/usr/sbin\\:/usr/bin\\:/sbin\\:/bin\n\n`
    + `User ${user} may run the following commands on ${host}:\n    (ALL : ALL) NOPASSWD: ALL\n`;
}

/**
 * The `sudo` command (`agent.mjs --sudo ARGS…`): parses `argv` (sudo-options.ts), answers -h, -V, -v, -k, -l itself,
 * looks the target user up in /etc/passwd, and runs the command through the agent with the caller's stdio (a
 * pseudo-terminal on the agent's side when stdin is a TTY, the caller's terminal put in raw mode meanwhile).
 * Resolves with the exit status: the command's, or 1 for a refused command line (`sudo: …` on stderr, as sudo).
 */
export async function sudoMain(argv: string[], socketPath: string = SUDO_SOCKET_PATH): Promise<number> {
  let req: SudoRequest;
  const passwd = (): string => {
    try {
      return readFileSync('/etc/passwd', 'utf8');
    } catch {
      return '';
    }
  };
  const groupFile = (): string => {
    try {
      return readFileSync('/etc/group', 'utf8');
    } catch {
      return '';
    }
  };
  const uid = process.getuid?.() ?? 0;
  const callerName = (): string => {
    try {
      return lookupUser(passwd(), `#${uid}`).name;
    } catch {
      return String(uid);
    }
  };
  try {
    req = parseSudoArgs(argv);
    if (req.action === 'help') return void process.stdout.write(SUDO_USAGE), 0;
    if (req.action === 'version') return void process.stdout.write('Sudo version 1.9.16 (spritzer: agent-mediated, no_new_privs)\n'), 0;
    if (req.action === 'validate' || req.action === 'reset') return 0;
    if (req.action === 'list') {
      if (req.command.length === 0) return void process.stdout.write(listText(callerName(), readFileSync('/etc/hostname', 'utf8').trim() || 'sprite')), 0;
    }
    const target = lookupUser(passwd(), req.user);
    let cwd = '/';
    try {
      cwd = process.cwd();
    } catch {
      // the caller's directory is gone: sudo runs the command in / then
    }
    const cmd = commandFor(req, { user: callerName(), uid, gid: process.getgid?.() ?? 0, cwd, env: process.env }, target, isExecutable);
    if (req.action === 'list') return void process.stdout.write(`${cmd.path}${cmd.argv.length > 1 ? ` ${cmd.argv.slice(1).join(' ')}` : ''}\n`), 0;
    const tty = !!process.stdin.isTTY;
    const size = (): { cols: number; rows: number } => ({ cols: process.stdout.columns || 80, rows: process.stdout.rows || 24 });
    const restore = tty ? rawTerminal() : () => undefined;
    try {
      return await runSudoClient(socketPath, { argv: cmd.argv, path: cmd.path, env: cmd.env, dir: cmd.dir, tty, ...size(), uid: cmd.uid, gid: cmd.gid, groups: userGroups(groupFile(), target.name, target.gid), stdin: true }, {
        stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, signals: process, size,
      });
    } finally {
      restore();
    }
  } catch (err) {
    if (!(err instanceof SudoUsageError)) throw err;
    if (err.message) process.stderr.write(`sudo: ${err.message}\n`);
    if (err.usage) process.stderr.write(SUDO_USAGE);
    return 1;
  }
}
