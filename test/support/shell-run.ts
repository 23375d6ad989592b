/**
 * Test support (never used by the server): runs one `sh -c` script on the `shell` engine over a fresh sprite
 * (the Linux skeleton, cwd /home/sprite) to its end, and returns what a client would see.
 */
import { FakeClock } from '../../src/server/core/clock.ts';
import { Vfs } from '../../src/server/machines/memory/vfs.ts';
import { createShellEngine } from '../../src/server/machines/memory/shell/engine.ts';
import { seedLinuxTree } from '../../src/server/machines/memory/linux-skeleton.ts';
import type { SpriteContext } from '../../src/server/machines/memory/engine.ts';
import type { ShellLimits } from '../../src/server/machines/memory/shell/world.ts';

const T = Date.UTC(2026, 10, 30, 9, 5, 0);
const ENV = { HOME: '/home/sprite', USER: 'sprite', PATH: '/usr/local/bin:/usr/bin:/bin' };

/** A fresh sprite named `demo` with the Linux skeleton. */
export function testSprite(): SpriteContext {
  let pid = 41;
  return { name: 'demo', vfs: seedLinuxTree(Vfs.skeleton(() => T), 'demo'), allocatePid: () => ++pid };
}

/**
 * Runs `script` (no stdin) on `ctx` (default a fresh sprite) as an exec session's command, or with `service` as a
 * service's (the plain sprite user, without an exec session's capabilities); resolves with stdout, stderr (UTF-8)
 * and the exit code.
 */
export async function runShell(script: string, ctx: SpriteContext = testSprite(), opts: { service?: boolean } = {}): Promise<{ stdout: string; stderr: string; exit: number }> {
  const { joined: _, ...result } = await runShellJoined(script, ctx, opts);
  return result;
}

/** {@link runShell}, with `joined`: both streams in the order the client received them. */
export async function runShellJoined(script: string, ctx: SpriteContext = testSprite(), opts: { service?: boolean } = {}): Promise<{ stdout: string; stderr: string; exit: number; joined: string }> {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  // Both streams in the order the client received them (what a terminal showing both would print).
  const both: Buffer[] = [];
  const proc = createShellEngine({ clock: new FakeClock(T) }).start(
    ctx,
    { argv: ['sh', '-c', script], env: ENV, dir: '/home/sprite', tty: false, rows: 24, cols: 80, ...(opts.service ? { service: true } : {}) },
    { stdout: (d) => void (out.push(Buffer.from(d)), both.push(Buffer.from(d))), stderr: (d) => void (err.push(Buffer.from(d)), both.push(Buffer.from(d))) },
    { stdin: false },
  );
  const exit = await proc.exit;
  return { stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString(), exit, joined: Buffer.concat(both).toString() };
}

/**
 * Runs `sh -c script` on a shell engine with `opts.limits` to its end, on `opts.ctx` (default a fresh sprite); with
 * `opts.stdin` the exec has that stdin (then closed); `opts.onStart` gets the process (to signal it). Resolves with
 * stdout, stderr (UTF-8) and the exit code.
 */
export async function runShellWith(script: string, opts: { limits?: ShellLimits; stdin?: string; ctx?: SpriteContext; onStart?: (p: { signal(s: string): void }) => void } = {}): Promise<{ stdout: string; stderr: string; exit: number }> {
  let stdout = Buffer.alloc(0);
  let stderr = Buffer.alloc(0);
  const proc = createShellEngine({ clock: new FakeClock(T), ...(opts.limits ? { limits: opts.limits } : {}) }).start(
    opts.ctx ?? testSprite(),
    { argv: ['sh', '-c', script], env: ENV, dir: '/home/sprite', tty: false, rows: 24, cols: 80 },
    { stdout: (d) => void (stdout = Buffer.concat([stdout, d])), stderr: (d) => void (stderr = Buffer.concat([stderr, d])) },
    { stdin: opts.stdin !== undefined },
  );
  if (opts.stdin !== undefined) {
    proc.writeStdin(Buffer.from(opts.stdin));
    proc.endStdin();
  }
  opts.onStart?.(proc);
  const exit = await proc.exit;
  return { stdout: stdout.toString(), stderr: stderr.toString(), exit };
}
