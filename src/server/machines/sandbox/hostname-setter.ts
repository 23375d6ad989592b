/**
 * Sets a running sandbox's hostname from the host, in two steps so the slow part happens early: `start` spawns
 * `nsenter --uts` into the sandbox's UTS namespace with a shell that waits for one name on stdin; `set` hands it the
 * name (then only `exec hostname` remains). Used for spare sandboxes, which learn their sprite's name only when a
 * create adopts them. It owns that one helper process; it knows nothing of spares, agents or layers.
 * @see spares.ts, docs/sandbox.md "Spares", nsenter(1), hostname(1)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { SANDBOX_PATH } from './launcher.ts';

/**
 * The helper's script: it first checks that the UTS namespace it joined is the sandbox's (`$1`, read at launch) — by
 * the time it runs, the sandbox's PID 1 may have ended and a host process taken its number, and setting that
 * namespace's name would rename the host — then one line on stdin is the hostname (`--` so that no name reads as an
 * option).
 */
const SCRIPT =
  '[ "$(readlink /proc/self/ns/uts)" = "$1" ] || { echo "not the sandbox UTS namespace: $1" >&2; exit 3; }; ' +
  'IFS= read -r n && exec hostname -- "$n"';

/** A helper waiting in one sandbox's UTS namespace (host pid `initPid`'s) for the name to set. */
export class HostnameSetter {
  private readonly exit: Promise<{ code: number | null; stderr: string }>;
  private used = false;

  private constructor(
    /** The sandbox PID 1 (host pid) whose UTS namespace the helper joined. */
    readonly initPid: number,
    private readonly child: ChildProcess,
  ) {
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString('utf8')).slice(-4096)));
    child.stdin!.on('error', () => undefined);
    this.exit = new Promise((resolve) => {
      child.once('exit', (code) => resolve({ code, stderr: stderr.trim() }));
      child.once('error', (err) => resolve({ code: null, stderr: err.message }));
    });
  }

  /**
   * Spawns the helper for the sandbox whose PID 1 is host pid `initPid` and whose UTS namespace is `utsNamespace`
   * (`uts:[inode]`, `Sandbox.utsNamespace`). Never throws; a failure, a wrong namespace included, shows in `set`.
   */
  static start(initPid: number, utsNamespace: string): HostnameSetter {
    const argv = ['--target', String(initPid), '--uts', '--', '/bin/sh', '-c', SCRIPT, 'hostname-setter', utsNamespace];
    const child = spawn('nsenter', argv, {
      stdio: ['pipe', 'ignore', 'pipe'],
      env: { PATH: SANDBOX_PATH },
    });
    return new HostnameSetter(initPid, child);
  }

  /**
   * Sets the hostname to `name` (a sprite name: no newline) and resolves when it is set. Rejects with the helper's
   * stderr when it failed (the sandbox is gone, `hostname` refused the name), or when called twice.
   */
  async set(name: string): Promise<void> {
    if (this.used) throw new Error('hostname setter already used');
    if (name.includes('\n')) throw new Error(`invalid hostname ${JSON.stringify(name)}`);
    this.used = true;
    this.child.stdin!.end(`${name}\n`);
    const { code, stderr } = await this.exit;
    if (code !== 0) throw new Error(`setting the hostname to ${name} failed (exit ${code}): ${stderr || 'no output'}`);
  }

  /** Kills the helper if it still waits (the sandbox went away, or it was never used). */
  dispose(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}
