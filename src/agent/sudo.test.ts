import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventEmitter } from 'node:events';
import { connect, type Server } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { encodeFrame, FrameType, type SpawnMessage } from '../protocol/agent.ts';
import { listenSudo, runSudoClient } from './sudo.ts';

let dir: string;
let path: string;
let server: Server;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sudo-relay-'));
  path = join(dir, 'sudo.sock');
  // On the host the relay runs the command as the test's own user (no uid change): what is tested is the relay.
  server = await listenSudo(path, { dropPrivileges: false, exitDrainMs: 50 });
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  await rm(dir, { recursive: true, force: true });
});

const spawnOf = (argv: string[], extra: Partial<SpawnMessage> = {}): SpawnMessage => ({
  argv, env: { PATH: '/usr/bin:/bin' }, dir: '/', tty: false, rows: 24, cols: 80, uid: 0, gid: 0, stdin: true, ...extra,
});

/** A caller: in-memory streams, a signal emitter, and what arrived on stdout/stderr. */
function caller(size = { cols: 80, rows: 24 }) {
  const io = { stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough(), signals: new EventEmitter(), size: () => size };
  let out = '';
  let err = '';
  io.stdout.on('data', (d: Buffer) => (out += d.toString()));
  io.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return { io, size, out: () => out, err: () => err, until: (re: RegExp) => new Promise<void>((resolve) => {
    const check = (): void => void (re.test(out) && (io.stdout.off('data', check), resolve()));
    io.stdout.on('data', check);
    check();
  }) };
}

describe('the sudo relay', () => {
  it('relays stdout, stderr and the exit status', async () => {
    const c = caller();
    c.io.stdin.end();
    const code = await runSudoClient(path, spawnOf(['sh', '-c', 'echo out; echo err >&2; exit 7']), c.io);
    expect([code, c.out(), c.err()]).toEqual([7, 'out\n', 'err\n']);
  });

  it('relays stdin to its end (EOF)', async () => {
    const c = caller();
    const done = runSudoClient(path, spawnOf(['sh', '-c', 'cat; echo eof']), c.io);
    c.io.stdin.write('hello ');
    c.io.stdin.end('world\n');
    expect(await done).toBe(0);
    expect(c.out()).toBe('hello world\neof\n');
  });

  it('forwards a signal to the command', async () => {
    const c = caller();
    const done = runSudoClient(path, spawnOf(['sh', '-c', 'trap "echo got TERM; exit 9" TERM; echo ready; while :; do sleep 0.05; done']), c.io);
    await c.until(/ready\n/);
    c.io.signals.emit('SIGTERM');
    expect(await done).toBe(9);
    expect(c.out()).toBe('ready\ngot TERM\n');
    expect(c.io.signals.listenerCount('SIGTERM')).toBe(0); // handlers removed at the end
  });

  it('runs on a pseudo-terminal when asked, and relays a resize', async () => {
    const c = caller({ cols: 100, rows: 30 });
    const done = runSudoClient(path, spawnOf(['sh', '-c', 'tty; stty size; read x; stty size'], { tty: true, rows: 30, cols: 100 }), c.io);
    await c.until(/30 100\r\n/);
    c.size.cols = 132;
    c.size.rows = 50;
    c.io.signals.emit('SIGWINCH');
    c.io.stdin.write('\n');
    expect(await done).toBe(0);
    expect(c.out()).toMatch(/^\/dev\/pts\/\d+\r\n30 100\r\n\r\n50 132\r\n$/);
  });

  it('kills the command when the caller goes away before it ends', async () => {
    const sock = connect(path);
    let text = '';
    sock.on('data', (d: Buffer) => (text += d.subarray(9).toString()));
    sock.write(encodeFrame(FrameType.Spawn, 0, Buffer.from(JSON.stringify(spawnOf(['sh', '-c', 'echo $$; exec sleep 100'])))));
    await new Promise<void>((resolve) => sock.on('data', () => /\d+\n/.test(text) && resolve()));
    const pid = Number(text.trim());
    sock.destroy();
    const alive = (): boolean => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    for (let i = 0; i < 500 && alive(); i++) await new Promise((r) => setTimeout(r, 10));
    expect(alive()).toBe(false);
  });

  it('drops a connection whose first frame is not SPAWN; a client facing no agent fails with a sudo: message', async () => {
    const sock = connect(path);
    sock.write(encodeFrame(FrameType.Stdin, 0, Buffer.from('x')));
    await new Promise((resolve) => sock.on('close', resolve));
    const c = caller();
    const code = await runSudoClient(join(dir, 'missing.sock'), spawnOf(['true']), c.io);
    expect([code, c.err()]).toEqual([1, `sudo: cannot reach the sprite's agent at ${join(dir, 'missing.sock')}: ENOENT\n`]);
  });
});
