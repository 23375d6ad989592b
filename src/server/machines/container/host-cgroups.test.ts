import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ContainerHostCgroups, parentPaths, unreachableReason } from './host-cgroups.ts';

describe('unreachableReason', () => {
  const v1 = { CgroupDriver: 'cgroupfs', CgroupVersion: '1' };
  it('is none for a local cgroupfs daemon on cgroup v1 with spritzer as root', () => {
    expect(unreachableReason('unix:///var/run/docker.sock', v1, 0)).toBeUndefined();
  });
  it('names what is out of reach: a remote daemon, a non-root spritzer, the systemd driver, cgroup v2', () => {
    expect(unreachableReason('tcp://10.0.0.2:2375', v1, 0)).toBe('the daemon is not local (tcp://10.0.0.2:2375)');
    expect(unreachableReason('unix:///run/docker.sock', v1, 1000)).toBe('spritzer does not run as root');
    expect(unreachableReason('unix:///run/docker.sock', { CgroupDriver: 'systemd', CgroupVersion: '1' }, 0)).toBe("the daemon's cgroup driver is systemd, not cgroupfs");
    expect(unreachableReason('unix:///run/docker.sock', { CgroupDriver: 'cgroupfs', CgroupVersion: '2' }, 0)).toBe('the host has cgroup v2, not v1');
  });
});

describe('parentPaths', () => {
  it('gives each controller the parent of the container’s own cgroup, co-mounted controllers included', () => {
    const text = '9:name=systemd:/p/abc\n4:memory:/process_api/h/p/abc\n2:cpu,cpuacct:/p/abc\n0::/p/abc\n';
    const paths = parentPaths(text);
    expect(paths.get('memory')).toBe('/process_api/h/p');
    expect(paths.get('cpu')).toBe('/p');
    expect(paths.get('cpuacct')).toBe('/p');
    expect(paths.has('')).toBe(false);
  });
});

describe('ContainerHostCgroups.place', () => {
  it('writes the memory and pids totals on the parent the first container’s /proc/<pid>/cgroup names, once', async () => {
    const root = await mkdtemp(join(tmpdir(), 'host-cgroups-'));
    try {
      const proc = join(root, 'proc');
      await mkdir(join(proc, 'self'), { recursive: true });
      await mkdir(join(proc, '42'), { recursive: true });
      const mounts = ['memory', 'pids', 'cpu'].map((c) => `cgroup ${root}/cg/${c} cgroup rw,${c} 0 0`).join('\n');
      await writeFile(join(proc, 'self/mounts'), `${mounts}\n`);
      await writeFile(join(proc, '42/cgroup'), '4:memory:/own/spritzer-sprites/c1\n3:pids:/spritzer-sprites/c1\n1:cpu:/spritzer-sprites/c1\n');
      const warnings: string[] = [];
      const h = new ContainerHostCgroups('spritzer-sprites', { memoryTotalBytes: 12345, pidsTotal: 77, cpuYieldAfterMs: 0, warn: (w) => warnings.push(w), procRoot: proc });
      await h.place(42);
      expect(await readFile(join(root, 'cg/memory/own/spritzer-sprites/memory.limit_in_bytes'), 'utf8')).toBe('12345');
      expect(await readFile(join(root, 'cg/pids/spritzer-sprites/pids.max'), 'utf8')).toBe('77');
      await writeFile(join(root, 'cg/memory/own/spritzer-sprites/memory.limit_in_bytes'), 'changed');
      await h.place(42);
      expect(await readFile(join(root, 'cg/memory/own/spritzer-sprites/memory.limit_in_bytes'), 'utf8')).toBe('changed');
      await h.place(undefined);
      expect(warnings).toEqual([]);
      await h.close();
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
