/**
 * The agent's processes, through the real bundle and a real AgentClient on the host (`--root` temp dir): output as
 * produced and byte-exact, exit codes, signals to the group, stdin streaming, TTY, uid drop (as root), killAll.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentClient, AgentSpawnRequest } from '../server/machines/agent/client.ts';
import { IS_ROOT, startTestAgent, type TestAgent } from '../../test/support/agent.ts';
import { SPRITE_GID, SPRITE_PROCESS_GROUPS, SPRITE_UID } from '../protocol/sprite-tree.ts';

const LINUX = process.platform === 'linux';
if (!LINUX) console.warn('agent exec tests skipped: the agent needs Linux (/proc, process groups, node-pty)');

const ENV = { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: '/home/sprite' };
let nextPid = 1;

interface Run {
  pid: number;
  out(): Buffer;
  err(): Buffer;
  exit: Promise<number>;
  proc: ReturnType<AgentClient['spawn']>;
}

function run(client: AgentClient, argv: string[], over: Partial<AgentSpawnRequest> = {}, stdin = false): Run {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const req: AgentSpawnRequest = { argv, env: ENV, dir: '/home/sprite', tty: false, rows: 24, cols: 80, uid: SPRITE_UID, gid: SPRITE_GID, groups: [...SPRITE_PROCESS_GROUPS], ...over };
  const pid = nextPid++;
  const proc = client.spawn(req, { stdout: (d) => out.push(Buffer.from(d)), stderr: (d) => err.push(Buffer.from(d)) }, { stdin, pid });
  return { pid, out: () => Buffer.concat(out), err: () => Buffer.concat(err), exit: proc.exit, proc };
}

/** Whether `pid` runs (a zombie waiting for its reaper counts as gone). */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z /s.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

describe.skipIf(!LINUX)('agent processes', { timeout: 30000 }, () => {
  let agent: TestAgent;
  let client: AgentClient;
  beforeAll(async () => {
    agent = await startTestAgent();
    client = agent.client;
  }, 30000);
  afterAll(async () => {
    await agent?.stop();
  });

  it('separates stdout and stderr, byte-exact, and reports the exit code', async () => {
    const r = run(client, ['sh', '-c', "printf '\\377'; echo to stderr >&2; exit 3"]);
    expect(await r.exit).toBe(3);
    expect(r.out().toString('hex')).toBe('ff');
    expect(r.err().toString()).toBe('to stderr\n');
  });

  it('returns every byte value of a file unchanged', async () => {
    await client.fs.writeFile('/home/sprite/all.bin', Uint8Array.from({ length: 256 }, (_, i) => i));
    const r = run(client, ['cat', 'all.bin']);
    expect(await r.exit).toBe(0);
    expect([...r.out()]).toEqual(Array.from({ length: 256 }, (_, i) => i));
  });

  it('runs in the given directory with exactly the given environment', async () => {
    const r = run(client, ['sh', '-c', 'env; basename "$PWD"'], { env: { PATH: ENV.PATH, GREETING: 'hello from env' }, dir: '/tmp' });
    expect(await r.exit).toBe(0);
    const lines = r.out().toString().trim().split('\n');
    expect(lines.at(-1)).toBe('tmp');
    // sh adds PWD itself; nothing of the agent's own environment leaks in.
    expect(lines.slice(0, -1).filter((l) => !l.startsWith('PWD=')).sort()).toEqual(['GREETING=hello from env', `PATH=${ENV.PATH}`]);
  });

  // Without the run-as helper node sets the ids, and libuv drops the supplementary groups it cannot set (the groups
  // are the helper's: src/agent/run-as.test.ts).
  it.skipIf(!IS_ROOT)('without the run-as helper runs processes as the sprite user (uid/gid 1001), no supplementary groups', async () => {
    const r = run(client, ['sh', '-c', 'id -u; id -g; id -G']);
    expect(await r.exit).toBe(0);
    expect(r.out().toString()).toBe('1001\n1001\n1001\n');
  });

  it('honours path= while argv[0] stays what the caller gave', async () => {
    const r = run(client, ['my-shell', '-c', 'echo "$0"'], { path: '/bin/sh' });
    expect(await r.exit).toBe(0);
    expect(r.out().toString()).toBe('my-shell\n');
  });

  it('fails with exit 1 and a chdir message when the working directory is missing', async () => {
    const r = run(client, ['pwd'], { dir: '/nope/deeper' });
    expect(await r.exit).toBe(1);
    expect(r.err().toString()).toBe('chdir /nope/deeper: no such file or directory\n');
    expect(r.out().byteLength).toBe(0);
  });

  it('exits 127 when the executable does not exist', async () => {
    const r = run(client, ['definitely-not-a-command-xyz']);
    expect(await r.exit).toBe(127);
    expect(r.err().toString()).toBe('exec: "definitely-not-a-command-xyz": executable file not found in $PATH\n');
  });

  it('exits 127 with the message on the terminal when a TTY program does not exist', async () => {
    const r = run(client, ['no-such-tty-program'], { tty: true });
    expect(await r.exit).toBe(127);
    expect(r.out().toString()).toBe('exec: "no-such-tty-program": executable file not found in $PATH\r\n');
  });

  it('streams stdin to the live process and closes it on EOF', async () => {
    const r = run(client, ['cat'], {}, true);
    r.proc.writeStdin(Uint8Array.of(0xff, 0x00, 0x80, 0x41));
    // The bytes come back while the process still runs: stdin is not collected until EOF.
    await vi.waitFor(() => expect(r.out().toString('hex')).toBe('ff008041'), { timeout: 15000 });
    r.proc.endStdin();
    expect(await r.exit).toBe(0);
  });

  it('without stdin, a reader sees EOF at once', async () => {
    const r = run(client, ['sh', '-c', 'wc -c']);
    expect(await r.exit).toBe(0);
    expect(r.out().toString().trim()).toBe('0');
  });

  it('delivers output as produced, before the process ends', async () => {
    const r = run(client, ['sh', '-c', 'echo step1; sleep 30']);
    await vi.waitFor(() => expect(r.out().toString()).toBe('step1\n'), { timeout: 15000 });
    r.proc.signal('TERM');
    expect(await r.exit).toBe(143);
  });

  it('lets a trap handle TERM and report its own exit code', async () => {
    const r = run(client, ['bash', '-c', 'trap "echo cleanup > s; exit 7" TERM; echo ready; while true; do sleep 0.05; done'], { dir: '/tmp' });
    await vi.waitFor(() => expect(r.out().toString()).toBe('ready\n'), { timeout: 15000 });
    r.proc.signal('SIGTERM');
    expect(await r.exit).toBe(7);
    expect(Buffer.from(await client.fs.readFile('/tmp/s')).toString()).toBe('cleanup\n');
  });

  it('signals the whole process group (background children die too)', async () => {
    const r = run(client, ['sh', '-c', 'sleep 1000 & echo $!; sleep 1000 & echo $!; wait']);
    await vi.waitFor(() => expect(r.out().toString().trim().split('\n')).toHaveLength(2), { timeout: 15000 });
    const pids = r.out().toString().trim().split('\n').map(Number);
    r.proc.signal('KILL');
    expect(await r.exit).toBe(137);
    await vi.waitFor(() => expect(pids.filter(alive)).toEqual([]), { timeout: 15000 });
  });

  it('reports the exit without waiting for a background child that holds the output pipe', async () => {
    const r = run(client, ['sh', '-c', 'sleep 30 & echo pid=$!']);
    expect(await r.exit).toBe(0);
    const pid = Number(/pid=(\d+)/.exec(r.out().toString())?.[1]);
    expect(pid).toBeGreaterThan(1);
    // The exit came while the background sleep still runs.
    expect(alive(pid)).toBe(true);
    process.kill(pid, 'SIGKILL');
  });

  it('delivers all 1,288,895 bytes of seq 1 200000', async () => {
    const r = run(client, ['seq', '1', '200000']);
    expect(await r.exit).toBe(0);
    expect(r.out().byteLength).toBe(1288895);
    expect(r.out().subarray(-7).toString()).toBe('200000\n');
  });

  it('runs a TTY on a real pseudo-terminal whose size follows resize', async () => {
    const r = run(client, ['sh', '-c', 'tty; stty size; read x; stty size'], { tty: true, rows: 30, cols: 100 }, true);
    await vi.waitFor(() => expect(r.out().toString()).toMatch(/^\/dev\/pts\/\d+\r\n30 100\r\n$/), { timeout: 15000 });
    r.proc.resize(120, 40);
    r.proc.writeStdin(Buffer.from('go\r'));
    expect(await r.exit).toBe(0);
    expect(r.out().toString()).toMatch(/40 120\r\n$/);
  });

  it.skipIf(!IS_ROOT)('without the run-as helper runs TTY processes as the sprite user too, without supplementary groups (not root\'s)', async () => {
    const r = run(client, ['sh', '-c', 'id -u; id -G'], { tty: true });
    expect(await r.exit).toBe(0);
    expect(r.out().toString()).toBe('1001\r\n1001\r\n');
  });

  it('interrupts the foreground job of a TTY with a raw 0x03 byte', async () => {
    const r = run(client, ['cat'], { tty: true }, true);
    r.proc.writeStdin(Buffer.from('x'));
    await vi.waitFor(() => expect(r.out().toString()).toContain('x'), { timeout: 15000 });
    r.proc.writeStdin(Uint8Array.of(0x03));
    expect(await r.exit).toBe(130);
  });

  it('killAll KILLs every process it started and resolves once they are gone', async () => {
    const a = run(client, ['sleep', '1000']);
    const b = run(client, ['sh', '-c', 'sleep 1000']);
    await client.killAll();
    expect(await a.exit).toBe(137);
    expect(await b.exit).toBe(137);
  });
});

describe.skipIf(!LINUX)('agent connection', { timeout: 30000 }, () => {
  it('closed resolves, running processes end with 137 and calls reject when the agent dies', async () => {
    const agent = await startTestAgent();
    try {
      const r = run(agent.client, ['sleep', '1000']);
      agent.proc.kill('SIGKILL');
      await agent.client.closed;
      expect(await r.exit).toBe(137);
      await expect(agent.client.fs.stat('/')).rejects.toMatchObject({ code: 'ECONNRESET' });
    } finally {
      await agent.stop();
    }
  });

  it('a second client replaces the first; processes keep running', async () => {
    const agent = await startTestAgent();
    try {
      const { AgentClient } = await import('../server/machines/agent/client.ts');
      const r = run(agent.client, ['sh', '-c', 'echo $$; sleep 1000']);
      await vi.waitFor(() => expect(r.out().toString()).toMatch(/^\d+\n$/), { timeout: 15000 });
      const pid = Number(r.out().toString());
      const second = await AgentClient.connect(agent.socket);
      await agent.client.closed;
      expect(alive(pid)).toBe(true);
      await second.killAll();
      await vi.waitFor(() => expect(alive(pid)).toBe(false), { timeout: 15000 });
      second.close();
    } finally {
      await agent.stop();
    }
  });

  it('connect gives up with ETIMEDOUT when no agent listens', async () => {
    const { AgentClient } = await import('../server/machines/agent/client.ts');
    const agent = await startTestAgent();
    const socket = join(agent.runDir, 'nobody.sock');
    try {
      await expect(AgentClient.connect(socket, { timeoutMs: 50 })).rejects.toMatchObject({ code: 'ETIMEDOUT' });
    } finally {
      await agent.stop();
    }
    expect(await readFile(socket).catch(() => 'absent')).toBe('absent');
  });
});
