/**
 * The bundled agent inside bubblewrap, laid out as the launcher lays it out (`/.sprite/bin/node`,
 * `/.sprite/agent/agent.mjs`, node-pty at `/.sprite/agent/node_modules/node-pty`, the socket dir at `/.sprite/run`),
 * in its own PID, network, IPC and UTS namespaces. It checks what only a real PID namespace shows: the agent is
 * PID 2 under bwrap's PID 1, orphans are reaped, killAll sweeps processes that left the agent's process groups,
 * and spawned processes run as uid 1001. Skips (with the reason printed) where bubblewrap cannot run.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentFiles } from '../../src/server/machines/agent/bundle.ts';
import { AgentClient, type AgentSpawnRequest } from '../../src/server/machines/agent/client.ts';

const hasBwrap = process.platform === 'linux' && spawnSync('bwrap', ['--version']).status === 0;
const isRoot = process.getuid?.() === 0;
const skipReason = process.platform !== 'linux' ? 'not Linux' : !hasBwrap ? 'bubblewrap (bwrap) is not installed' : !isRoot ? 'not root' : '';
if (skipReason) console.warn(`sandbox agent tests skipped: ${skipReason}`);

let nextPid = 1;
async function sh(client: AgentClient, script: string): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const req: AgentSpawnRequest = {
    argv: ['sh', '-c', script],
    env: { PATH: '/usr/bin:/bin', HOME: '/home/sprite' },
    dir: '/home/sprite',
    tty: false,
    rows: 24,
    cols: 80,
    uid: 1001,
    gid: 1001,
  };
  const p = client.spawn(req, { stdout: (d) => (out += Buffer.from(d).toString()), stderr: (d) => (err += Buffer.from(d).toString()) }, { stdin: false, pid: nextPid++ });
  return { code: await p.exit, out, err };
}

/** Every process of the namespace as `pid state comm` lines, read from /proc inside (as uid 1001). */
const PS = 'for f in /proc/[0-9]*/stat; do read -r l < "$f" 2>/dev/null && echo "$l"; done | cut -d" " -f1-3';

describe.skipIf(!!skipReason)('agent under bubblewrap', () => {
  let base: string;
  let bwrap: ChildProcess;
  let client: AgentClient;

  beforeAll(async () => {
    const files = await agentFiles({ rebuild: true });
    base = await mkdtemp(join(tmpdir(), 'spritzer-agent-bwrap-'));
    const runDir = join(base, 'run');
    await import('node:fs/promises').then((f) => f.mkdir(runDir));
    // prettier-ignore
    const args = [
      '--ro-bind', '/usr', '/usr', '--symlink', 'usr/bin', '/bin', '--symlink', 'usr/lib', '/lib',
      '--symlink', 'usr/lib64', '/lib64', '--symlink', 'usr/sbin', '/sbin',
      '--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp', '--dir', '/home/sprite',
      '--ro-bind', files.node, '/.sprite/bin/node',
      '--ro-bind', files.bundle, '/.sprite/agent/agent.mjs',
      '--ro-bind', files.nodePtyDir, '/.sprite/agent/node_modules/node-pty',
      '--bind', runDir, '/.sprite/run',
      '--unshare-pid', '--unshare-net', '--unshare-ipc', '--unshare-uts', '--hostname', 'agent-test',
      '--die-with-parent', '--clearenv', '--setenv', 'PATH', '/usr/bin:/bin',
      '/.sprite/bin/node', '/.sprite/agent/agent.mjs', '--socket', '/.sprite/run/agent.sock',
    ];
    bwrap = spawn('bwrap', args, { stdio: ['ignore', 'inherit', 'inherit'] });
    // bwrap makes /home/sprite root-owned; the sprite user needs it as its home.
    client = await AgentClient.connect(join(runDir, 'agent.sock'), { timeoutMs: 20000 });
    await client.fs.chown('/home/sprite', 1000, 1000);
  });

  afterAll(async () => {
    client?.close();
    bwrap?.kill('SIGKILL');
    if (base) await rm(base, { recursive: true, force: true });
  });

  it('runs the agent as PID 2 under bwrap, and processes as uid 1001', async () => {
    const r = await sh(client, 'echo $PPID; id -u; cat /proc/1/comm');
    expect(r.code).toBe(0);
    expect(r.out).toBe('2\n1001\nbwrap\n');
  });

  it('orphaned processes are reaped (no zombie is left behind)', async () => {
    const r = await sh(client, '(sleep 0.2 &); echo started');
    expect(r.out).toBe('started\n');
    await vi.waitFor(async () => {
      const ps = await sh(client, PS);
      expect(ps.out).not.toMatch(/\(sleep\)/);
      expect(ps.out).not.toMatch(/ Z$/m);
    }, { timeout: 15000, interval: 100 });
  });

  it('killAll also kills processes that left the agent’s process groups', async () => {
    // Answer only once the child has exec'd `sleep` (until then /proc shows it as `setsid`).
    const r = await sh(
      client,
      'setsid sleep 1000 > /dev/null 2>&1 & p=$!; ' +
        'until [ "$(cut -d" " -f2 /proc/$p/stat 2>/dev/null)" = "(sleep)" ]; do sleep 0.01; done; echo $p',
    );
    const pid = Number(r.out);
    expect((await sh(client, PS)).out).toMatch(new RegExp(`^${pid} \\(sleep\\)`, 'm'));
    await client.killAll();
    const after = (await sh(client, PS)).out.trim().split('\n').map((l) => l.split(' ')[1]);
    // Left: bwrap (1), the agent (2) and the ps loop itself.
    expect(after).not.toContain('(sleep)');
  });

  it('usage counts the writable tree only (the read-only /usr bind is skipped)', async () => {
    const before = await client.usage();
    expect(before.files).toBeLessThan(50);
    await client.fs.writeFile('/home/sprite/u.bin', new Uint8Array(4096));
    expect(await client.usage()).toEqual({ bytes: before.bytes + 4096, files: before.files + 1 });
  });

  it('the fs API sees the sprite’s view, not the host’s', async () => {
    const names = (await client.fs.readdir('/')).map((e) => e.name);
    expect(names).toEqual(expect.arrayContaining(['home', 'tmp', 'usr']));
    expect(names).not.toContain('root');
    expect(names).not.toContain('work');
    await expect(client.fs.stat('/root')).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
