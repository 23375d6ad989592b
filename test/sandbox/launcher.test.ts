/**
 * The launcher with plain commands in place of the agent: a sandbox is named after its sprite, keeps what it
 * writes, sees no host file, no other sprite's files or processes, no network but loopback, and obeys its limits
 * (cgroups v1 here, rlimits as the fallback). Skips with the reason printed where the sandbox cannot run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CgroupV1 } from '../../src/server/machines/agent/cgroups.ts';
import { HostnameSetter } from '../../src/server/machines/sandbox/hostname-setter.ts';
import { launch } from '../../src/server/machines/sandbox/launcher.ts';
import { announceSkip, openBox, type Box } from './support.ts';

const skip = announceSkip('sandbox launcher tests');
const execFileP = promisify(execFile);

describe.skipIf(skip)('launcher', () => {
  let box: Box;
  const marker = `/tmp/spritzer-host-marker-${randomUUID()}`;

  beforeAll(async () => {
    box = await openBox();
    await box.create('sprite-a', 'alpha');
    await box.create('sprite-b', 'beta');
    await writeFile(marker, 'HOST SECRET\n');
  });

  afterAll(async () => {
    await rm(marker, { force: true });
    await box?.close();
  });

  it('names the sandbox after its sprite: uname -n, hostname and /etc/hostname', async () => {
    const r = await box.sh('sprite-a', 'uname -n; hostname; cat /etc/hostname; uname -s');
    expect(r.out).toBe('alpha\nalpha\nalpha\nLinux\n');
    expect(r.exit).toEqual({ code: 0, signal: null });
  });

  it('keeps a file written in one run for the next, on its own layer only', async () => {
    await box.sh('sprite-a', 'echo kept > /home/sprite/note; mkdir -p /usr/local/share/x; echo usr > /usr/local/share/x/f');
    expect((await box.sh('sprite-a', 'cat /home/sprite/note /usr/local/share/x/f')).out).toBe('kept\nusr\n');
    const other = await box.sh('sprite-b', 'cat /home/sprite/note /usr/local/share/x/f 2>&1; true');
    expect(other.out).toMatch(/No such file or directory[\s\S]*No such file or directory/);
    expect(await readFile(join(box.storage.layerDir('sprite-a'), 'root/upper/home/sprite/note'), 'utf8')).toBe('kept\n');
  });

  it('shows no host path: not /work, the project, host /tmp, /root, /home, /var, /srv, /opt, /mnt, nor /etc secrets', async () => {
    const probe = [
      '/work', process.cwd(), marker, '/etc/shadow', '/etc/gshadow', '/etc/npmrc', '/etc/pip.conf', '/etc/ssl/private',
      '/var/lib/dpkg', '/var/log/dpkg.log', '/home/cloudsdk', '/sys/fs/cgroup', box.dataDir,
    ];
    const r = await box.sh('sprite-a', `for p in ${probe.map((p) => `'${p}'`).join(' ')}; do test -e "$p" && echo "VISIBLE $p"; done;
      echo "root:$(ls -A /root)"; echo "home:$(ls -A /home)"; echo "tmp:$(ls -A /tmp)"; echo "srv:$(ls -A /srv)$(ls -A /opt)$(ls -A /mnt)"; echo "var:$(ls /var)"`);
    expect(r.out).toBe('root:\nhome:sprite\ntmp:\nsrv:\nvar:cache\nlib\nlog\ntmp\n');
  });

  it('two sprites see neither each other’s processes nor files', async () => {
    const a = await launch({
      hostname: 'alpha', base: box.base, layerDir: box.storage.layerDir('sprite-a'), mergedDir: join(box.storage.spriteDir('sprite-a'), 'merged'),
      command: ['sh', '-c', 'echo secret-a > /tmp/only-a; exec sleep 1000'],
    });
    try {
      const upper = join(box.storage.layerDir('sprite-a'), 'root/upper/tmp/only-a');
      await expect.poll(() => readFile(upper, 'utf8').catch(() => ''), { timeout: 10_000 }).toBe('secret-a\n');
      const b = await box.sh('sprite-b', 'ps -e -o comm=; test -e /tmp/only-a && echo seen || echo unseen');
      expect(b.out.trim().split('\n')).toEqual(['sh', 'sh', 'ps', 'unseen']);
    } finally {
      await a.kill();
    }
  });

  it('has loopback only: the host’s listening port is unreachable from inside', async () => {
    let accepted = 0;
    const server: Server = createServer((s) => {
      accepted += 1;
      s.destroy();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    try {
      const r = await box.sh('sprite-a', `tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' '; bash -c 'echo hi > /dev/tcp/127.0.0.1/${port}' 2>/dev/null && echo reachable || echo unreachable`);
      expect(r.out).toBe('lo\nunreachable\n');
      expect(accepted).toBe(0);
    } finally {
      server.close();
    }
  });

  it('runs the first process as root with a small capability set and no way to gain more', async () => {
    const r = await box.sh('sprite-a', 'id -u; grep -E "^(CapEff|NoNewPrivs)" /proc/self/status');
    const [uid, capEff, nnp] = r.out.trim().split('\n');
    expect(uid).toBe('0');
    const caps = BigInt(`0x${capEff!.split(/\s+/)[1]}`);
    expect(caps & (1n << 21n)).toBe(0n); // CAP_SYS_ADMIN
    expect(caps & (1n << 27n)).toBe(0n); // CAP_MKNOD
    expect(caps & (1n << 7n)).not.toBe(0n); // CAP_SETUID (the agent drops to uid 1001)
    expect(nnp).toMatch(/NoNewPrivs:\s+1/);
    const mount = await box.sh('sprite-a', 'mount -t tmpfs none /mnt 2>/dev/null && echo mounted || echo refused');
    expect(mount.out).toBe('refused\n');
  });

  /**
   * Makes a host process (`sleep 30`) take `pid`, as happens by itself once pids wrap (pid_max is often 32768): the
   * kernel hands out the number after ns_last_pid next. Other processes may start meanwhile: retried.
   */
  async function hostProcessAt(pid: number): Promise<ChildProcess> {
    let host: ChildProcess | undefined;
    for (let i = 0; i < 20 && host?.pid !== pid; i++) {
      host?.kill('SIGKILL');
      await writeFile('/proc/sys/kernel/ns_last_pid', String(pid - 1));
      host = spawn('sleep', ['30'], { stdio: 'ignore' });
    }
    if (host!.pid !== pid) host!.kill('SIGKILL');
    expect(host!.pid).toBe(pid);
    return host!;
  }

  const endedSandbox = async () => {
    const sb = await launch({
      hostname: 'alpha', base: box.base, layerDir: box.storage.layerDir('sprite-a'), mergedDir: join(box.storage.spriteDir('sprite-a'), 'merged'),
      command: ['sleep', '0.3'],
    });
    await sb.exited;
    return sb;
  };

  it('once ended, signals no host process that took its PID 1’s number', async () => {
    const sb = await endedSandbox();
    const host = await hostProcessAt(sb.initPid);
    try {
      sb.killNow();
      await sb.kill();
      await new Promise((r) => setTimeout(r, 100));
      expect(host.exitCode === null && host.signalCode === null).toBe(true);
      expect(await sb.hostPids()).not.toContain(host.pid);
    } finally {
      host.kill('SIGKILL');
    }
  });

  it('sets a running sandbox’s hostname from the host, and once ended never the host’s through its PID 1’s number', async () => {
    const running = await launch({
      hostname: 'alpha', base: box.base, layerDir: box.storage.layerDir('sprite-b'), mergedDir: join(box.storage.spriteDir('sprite-b'), 'merged'),
      command: ['sleep', '30'],
    });
    try {
      await HostnameSetter.start(running.initPid, running.utsNamespace!).set('gamma');
      const inside = await execFileP('nsenter', ['--target', String(running.initPid), '--uts', 'hostname']);
      expect(inside.stdout).toBe('gamma\n');
    } finally {
      await running.kill();
    }
    const hostName = (await execFileP('hostname')).stdout;
    const sb = await endedSandbox();
    const host = await hostProcessAt(sb.initPid);
    try {
      const setter = HostnameSetter.start(sb.initPid, sb.utsNamespace!);
      await expect(setter.set('renamed-host')).rejects.toThrow(/not the sandbox UTS namespace/);
      setter.dispose();
      expect((await execFileP('hostname')).stdout).toBe(hostName);
    } finally {
      host.kill('SIGKILL');
      // Where the guard failed, the host is renamed: give it its name back for whatever runs next.
      if ((await execFileP('hostname')).stdout !== hostName) await execFileP('hostname', [hostName.trim()]);
    }
  });

  it('reports a command that cannot start with its stderr', async () => {
    await expect(
      launch({
        hostname: 'alpha', base: box.base, layerDir: join(box.dataDir, 'no-such-layer'), mergedDir: join(box.storage.spriteDir('sprite-a'), 'merged2'),
        command: ['true'],
      }),
    ).rejects.toThrow(/alpha failed to start/);
  });

  describe('limits', () => {
    it('cgroups: the pids limit stops forks, the memory limit kills the hog, the cpu quota is written', async () => {
      const cgroups = await CgroupV1.open(`test-${randomUUID().slice(0, 8)}`);
      expect(cgroups).toBeDefined();
      const cg = await cgroups!.create('sprite-a', { pids: 12, memoryBytes: 64 * 1024 * 1024, cpus: 0.5 });
      try {
        const forks = await box.sh('sprite-a', 'for i in $(seq 1 30); do sleep 2 & done 2>&1; wait; echo done', { cgroup: cg });
        expect(forks.out + forks.err).toMatch(/fork|resource temporarily unavailable/i);
        const hog = await box.sh('sprite-a', 'python3 -c "a = bytearray(300 * 1024 * 1024); print(len(a))"; echo "exit $?"', { cgroup: cg });
        expect(hog.out).toBe('exit 137\n');
        await expect.poll(() => cg.pids()).toEqual([]);
      } finally {
        await cg.remove();
        await cgroups!.close();
      }
    });

    it('rlimits (the fallback): memory beyond RLIMIT_DATA fails inside the process', async () => {
      const r = await box.sh('sprite-a', 'python3 -c "a = bytearray(300 * 1024 * 1024)" 2>&1 | tail -1', { rlimits: { memoryBytes: 128 * 1024 * 1024 } });
      expect(r.out).toBe('MemoryError\n');
    });
  });
});
