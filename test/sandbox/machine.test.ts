/**
 * SandboxMachine end to end, with the real agent bundle: a sprite is a Linux machine named after it where
 * processes run as `sprite`, files persist between execs, other sprites' files and processes are invisible,
 * checkpoints rewind real commands' writes, a crashed agent reboots the sprite, and destroy/close leave nothing.
 * Skips with the reason printed where the sandbox cannot run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { lstat, readFile } from 'node:fs/promises';
import { agentBundle } from '../support/agent.ts';
import { SandboxMachineFactory, type SandboxMachine } from '../../src/server/machines/sandbox/sandbox-machine.ts';
import { announceSkip, exec, mountsUnder } from './support.ts';

const skip = announceSkip('sandbox machine tests');

/** Host pids whose parent is `pid` (all threads' children). */
function childrenOf(pid: number): number[] {
  const tasks = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8');
  return tasks.trim().split(/\s+/).filter(Boolean).map(Number);
}

describe.skipIf(skip)('SandboxMachine', () => {
  let factory: SandboxMachineFactory;
  let alpha: SandboxMachine;
  let beta: SandboxMachine;

  beforeAll(async () => {
    await agentBundle();
    factory = await SandboxMachineFactory.open({ limits: { pids: 512 } });
    [alpha, beta] = await Promise.all([
      factory.create({ name: 'alpha', id: 'sprite-alpha' }),
      factory.create({ name: 'beta', id: 'sprite-beta' }),
    ]);
  });

  afterAll(async () => {
    await factory?.close();
  });

  it('is a Linux machine named after the sprite, running commands as sprite in /home/sprite', async () => {
    const r = await exec(alpha, 'uname -a; id; pwd; echo $HOME');
    expect(r.code).toBe(0);
    const [uname, id, pwd, home] = r.out.trim().split('\n');
    expect(uname).toMatch(/^Linux alpha /);
    expect(id).toBe('uid=1001(sprite) gid=1001(sprite) groups=1001(sprite),27(sudo),100(users)');
    expect([pwd, home]).toEqual(['/home/sprite', '/home/sprite']);
    expect(alpha.kind).toBe('sandbox');
    expect(factory.snapshotMode).toMatch(/^(btrfs|copy)$/);
  });

  it('runs the host’s tools with no set-up', async () => {
    const r = await exec(alpha, 'python3 -c "print(6*7)"; git --version >/dev/null && echo git; printf "\\377" | od -An -tx1');
    expect(r.out).toBe('42\ngit\n ff\n');
  });

  it('runs TTY processes on a real pseudo-terminal of the requested size, with a writable /dev/shm', async () => {
    let out = '';
    const p = alpha.spawn(
      { argv: ['sh', '-c', 'tty; stty size; touch /dev/shm/x && echo shm-ok'], env: { PATH: '/usr/bin:/bin' }, dir: '/home/sprite', tty: true, rows: 30, cols: 100 },
      { stdout: (d) => (out += Buffer.from(d).toString()), stderr: (d) => (out += Buffer.from(d).toString()) },
      { stdin: false },
    );
    expect(await p.exit).toBe(0);
    expect(out).toMatch(/^\/dev\/pts\/\d+\r\n30 100\r\nshm-ok\r\n$/);
  });

  it('keeps the agent’s socket out of the sprite user’s reach', async () => {
    const r = await exec(alpha, 'ls /.sprite/run 2>&1; python3 -c "import socket; socket.socket(socket.AF_UNIX).connect(\'/.sprite/run/agent.sock\')" 2>&1 | tail -1');
    expect(r.out).toBe("ls: cannot open directory '/.sprite/run': Permission denied\nPermissionError: [Errno 13] Permission denied\n");
  });

  it('keeps a file written in one exec for the next, and the fs API sees it', async () => {
    expect((await exec(alpha, 'echo persisted > note.txt')).code).toBe(0);
    expect((await exec(alpha, 'cat note.txt')).out).toBe('persisted\n');
    expect(Buffer.from(await alpha.fs.readFile('/home/sprite/note.txt')).toString()).toBe('persisted\n');
    expect((await alpha.fs.stat('/home/sprite/note.txt')).uid).toBe(1001);
  });

  it('two sprites see neither each other’s files nor processes', async () => {
    const sleeper = alpha.spawn(
      { argv: ['sleep', '1000'], env: { PATH: '/usr/bin:/bin' }, dir: '/home/sprite', tty: false, rows: 24, cols: 80 },
      { stdout: () => undefined, stderr: () => undefined },
      { stdin: false },
    );
    await exec(alpha, 'echo only-alpha > /tmp/alpha-file');
    try {
      const b = await exec(beta, 'ps -e -o comm=; ls /tmp; cat /home/sprite/note.txt 2>&1');
      expect(b.out.split('\n')).not.toContain('sleep');
      expect(b.out).not.toContain('alpha-file');
      expect(b.out).toContain('No such file or directory');
      const a = await exec(alpha, 'ps -e -o comm=');
      expect(a.out.split('\n')).toContain('sleep');
      await expect(beta.fs.readFile('/tmp/alpha-file')).rejects.toMatchObject({ code: 'ENOENT' });
    } finally {
      sleeper.signal('KILL');
    }
    expect(await sleeper.exit).toBe(137);
  });

  it('ps inside lists the sprite’s own processes, with no host path on any command line', async () => {
    const r = await exec(alpha, 'ps -eo pid=,args=');
    expect(r.code).toBe(0);
    const lines = r.out.trim().split('\n').map((l) => l.trim());
    // PID 1 is the sprite's init (sh waiting on the agent), PID 2 the agent, then the exec itself.
    expect(lines[0]).toMatch(/^1 \/bin\/sh -c .* sprite-init \/\.sprite\/bin\/node \/\.sprite\/agent\/agent\.mjs/);
    expect(lines[1]).toMatch(/^2 \/\.sprite\/bin\/node \/\.sprite\/agent\/agent\.mjs --socket \/\.sprite\/run\/agent\.sock --run-as \/\.sprite\/agent\/spritzer-runas$/);
    for (const hostPath of ['/work', '/tmp/', factory.dataDir, process.cwd(), 'bwrap', '--bind']) expect(r.out).not.toContain(hostPath);
  });

  it('a process started through the agent knows its pid inside the sprite (the one its $$ says)', async () => {
    let out = '';
    const p = alpha.spawn(
      { argv: ['sh', '-c', 'echo $$'], env: { PATH: '/usr/bin:/bin' }, dir: '/home/sprite', tty: false, rows: 24, cols: 80 },
      { stdout: (d) => (out += Buffer.from(d).toString()), stderr: () => undefined },
      { stdin: false },
    );
    expect(await p.exit).toBe(0);
    expect(p.osPid).toBe(Number(out.trim()));
  });

  it('checkpoint and restore rewind files written by real commands; restore ends running processes', async () => {
    await exec(alpha, 'mkdir -p proj && echo v1 > proj/file && seq 1 100 > proj/list');
    const snap = await alpha.snapshot();
    await exec(alpha, 'echo v2 > proj/file && rm proj/list && echo extra > proj/extra');
    const running = alpha.spawn(
      { argv: ['sleep', '1000'], env: { PATH: '/usr/bin:/bin' }, dir: '/home/sprite', tty: false, rows: 24, cols: 80 },
      { stdout: () => undefined, stderr: () => undefined },
      { stdin: false },
    );
    await alpha.restore(snap);
    expect(await running.exit).toBe(137);
    expect((await exec(alpha, 'cat proj/file; wc -l < proj/list; ls proj')).out).toBe('v1\n100\nfile\nlist\n');
    await exec(alpha, 'echo v3 > proj/file');
    await alpha.restore(snap);
    expect((await exec(alpha, 'cat proj/file')).out).toBe('v1\n');
    await alpha.releaseSnapshot(snap);
    await alpha.releaseSnapshot(snap);
    await exec(alpha, 'echo v4 > proj/file');
    await expect(alpha.restore(snap)).rejects.toThrow(/released/);
    expect((await exec(alpha, 'cat proj/file')).out).toBe('v4\n');
  });

  it('stop kills every process and keeps the disk', async () => {
    const p = alpha.spawn(
      { argv: ['sh', '-c', 'echo before > /tmp/stop-check; exec sleep 1000'], env: { PATH: '/usr/bin:/bin' }, dir: '/', tty: false, rows: 24, cols: 80 },
      { stdout: () => undefined, stderr: () => undefined },
      { stdin: false },
    );
    await expect.poll(async () => (await exec(alpha, 'cat /tmp/stop-check 2>/dev/null; true')).out, { timeout: 10_000 }).toBe('before\n');
    await alpha.stop();
    expect(await p.exit).toBe(137);
    expect((await exec(alpha, 'cat /tmp/stop-check; ps -e -o comm= | grep -c sleep')).out).toBe('before\n0\n');
  });

  it('reports the bytes and files the sprite wrote', async () => {
    const before = await beta.usage();
    await exec(beta, 'head -c 5000 /dev/zero > blob');
    const after = await beta.usage();
    expect(after.files - before.files).toBe(1);
    expect(after.bytes - before.bytes).toBe(5000);
  });

  it('reboots after its agent crashes, keeps the disk, and tells the onReboot listeners', async () => {
    await exec(beta, 'echo survives > crash.txt');
    let reboots = 0;
    const off = beta.onReboot(() => (reboots += 1));
    const init = beta.initPid!;
    const agent = childrenOf(init)[0]!;
    process.kill(agent, 'SIGKILL');
    await expect.poll(() => reboots, { timeout: 20_000 }).toBe(1);
    off();
    expect(beta.initPid).not.toBe(init);
    expect((await exec(beta, 'cat crash.txt; uname -n')).out).toBe('survives\nbeta\n');
  });

  it('destroy kills everything and removes the layer, snapshots, mounts and dirs; close removes the data dir', async () => {
    const gamma = await factory.create({ name: 'gamma', id: 'sprite-gamma' });
    await exec(gamma, 'echo g > g.txt');
    await gamma.snapshot();
    const { layer, spriteDir } = gamma.paths;
    const { pids } = await gamma.processes();
    expect(pids.length).toBeGreaterThanOrEqual(3); // bwrap outside, bwrap as PID 1, the agent
    await gamma.destroy();
    for (const pid of pids) await expect(lstat(`/proc/${pid}`)).rejects.toMatchObject({ code: 'ENOENT' });
    for (const p of [layer, spriteDir]) await expect(lstat(p)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await mountsUnder(spriteDir)).toEqual([]);
    await expect(readFile(`${factory.dataDir}/vol/snaps/sprite-gamma`)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(gamma.fs.stat('/')).rejects.toThrow(/destroyed/);
  });
});

describe.skipIf(skip)('SandboxMachineFactory', () => {
  it('a temp data dir is removed even when the server exits without close', async () => {
    const script = `
      const { SandboxMachineFactory } = await import(${JSON.stringify(new URL('../../src/server/machines/sandbox/sandbox-machine.ts', import.meta.url).pathname)});
      const f = await SandboxMachineFactory.open();
      await f.create({ name: 'orphan', id: 'sprite-orphan' });
      console.log(f.dataDir);
      process.exit(0);`;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
    const dir = r.stdout.trim();
    expect(dir).toMatch(/spritzer-/);
    expect(await mountsUnder(dir)).toEqual([]);
    await expect(lstat(dir)).rejects.toMatchObject({ code: 'ENOENT' });
    const tag = createHash('sha256').update(dir).digest('hex').slice(0, 12);
    const cgroupDirs = spawnSync('sh', ['-c', `ls -d /sys/fs/cgroup/*/spritzer-${tag} /sys/fs/cgroup/*/*/*/spritzer-${tag} 2>/dev/null`], { encoding: 'utf8' });
    expect(cgroupDirs.stdout).toBe('');
  });

  it('close destroys what is left and removes its temp data dir with every mount', async () => {
    await agentBundle();
    const factory = await SandboxMachineFactory.open();
    const m = await factory.create({ name: 'left', id: 'sprite-left' });
    await exec(m, 'echo x > x');
    const dir = factory.dataDir;
    await factory.close();
    expect(await mountsUnder(dir)).toEqual([]);
    await expect(lstat(dir)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
