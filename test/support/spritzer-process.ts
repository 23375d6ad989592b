/**
 * The real `spritzer` command in a child process, for tests of what survives a restart or a `kill -9`: start one on
 * a free port with a data dir, stop it with a signal, and kill whatever a failed test left. Test set-up only.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/spritzer.mjs', import.meta.url));

/** The children started and not yet seen to exit. */
export const children = new Set<ChildProcess>();

/** SIGKILLs every child still running (an `afterEach` of a test that may fail mid-way). */
export function killChildren(): void {
  for (const c of children) c.kill('SIGKILL');
  children.clear();
}

/**
 * Starts `spritzer --addr 127.0.0.1:0 --log-level silent …args`; resolves once it listens, with its URL. With
 * `inheritedFd: n`, spritzer also inherits a pipe at descriptor `n` (≥ 3) without close-on-exec, as a supervisor's.
 */
export function startSpritzer(args: string[], opts: { inheritedFd?: number } = {}): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const extra = opts.inheritedFd === undefined ? [] : [...Array<'ignore'>(opts.inheritedFd - 3).fill('ignore'), 'pipe' as const];
    const child = spawn(process.execPath, [BIN, '--addr', '127.0.0.1:0', '--log-level', 'silent', ...args], { stdio: ['ignore', 'pipe', 'pipe', ...extra] });
    children.add(child);
    let out = '';
    let err = '';
    child.stderr!.on('data', (d) => (err += d));
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve({ child, url: m[1]! });
    });
    child.on('exit', (code) => {
      children.delete(child);
      reject(new Error(`spritzer exited (${code}) before listening: ${err}`));
    });
  });
}

/** Ends `child` with `signal` and resolves with its exit code once it is gone. */
export async function stopSpritzer(child: ChildProcess, signal: 'SIGKILL' | 'SIGTERM'): Promise<number | null> {
  const gone = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  child.kill(signal);
  const code = await gone;
  children.delete(child);
  return code;
}

/** The temp data dir (`$TMPDIR/spritzer-*`) whose pid file names `pid`, or undefined while there is none. */
export function tempDirOf(pid: number): string | undefined {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith('spritzer-')) continue;
    const dir = join(tmpdir(), name);
    try {
      if (Number(readFileSync(join(dir, 'spritzer.pid'), 'utf8').trim()) === pid) return dir;
    } catch {
      /* not a data dir */
    }
  }
  return undefined;
}
