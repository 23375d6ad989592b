import { mkdtemp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
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

describe('ContainerHostCgroups.close', () => {
  it('removes the empty parent from every hierarchy the daemon made it in, and no parent a container still uses', async () => {
    const root = await mkdtemp(join(tmpdir(), 'host-cgroups-'));
    try {
      const proc = join(root, 'proc');
      await mkdir(join(proc, 'self'), { recursive: true });
      await mkdir(join(proc, '42'), { recursive: true });
      const kinds = ['memory', 'pids', 'cpu', 'blkio', 'freezer', 'name=systemd'];
      const mountOf = (c: string) => join(root, 'cg', c.replace('name=', ''));
      const unified = join(root, 'cg/unified');
      await writeFile(join(proc, 'self/mounts'), kinds.map((c) => `cgroup ${mountOf(c)} cgroup rw,${c} 0 0\n`).join('') + `cgroup2 ${unified} cgroup2 rw 0 0\n`);
      await writeFile(join(proc, '42/cgroup'), kinds.map((c, i) => `${i + 1}:${c}:/spritzer-sprites/c1\n`).join('') + '0::/spritzer-sprites/c1\n');
      await mkdir(join(unified, 'spritzer-sprites/c1'), { recursive: true });
      for (const c of kinds) await mkdir(join(mountOf(c), 'spritzer-sprites/c1'), { recursive: true });
      const h = new ContainerHostCgroups('spritzer-sprites', { memoryTotalBytes: 1, cpuYieldAfterMs: 0, warn: () => undefined, procRoot: proc });
      await h.place(42);
      // A real cgroupfs has no files to remove; this stand-in has the total written.
      await rm(join(mountOf('memory'), 'spritzer-sprites/memory.limit_in_bytes'));
      // The container is gone from every hierarchy but freezer.
      for (const c of kinds) if (c !== 'freezer') await rm(join(mountOf(c), 'spritzer-sprites/c1'), { recursive: true });
      await rm(join(unified, 'spritzer-sprites/c1'), { recursive: true });
      await h.close();
      expect(await readdir(unified)).toEqual([]);
      const left = await Promise.all(kinds.map(async (c) => [c, await readdir(join(mountOf(c), 'spritzer-sprites')).then(() => true, () => false)]));
      expect(Object.fromEntries(left)).toEqual({ memory: false, pids: false, cpu: false, blkio: false, freezer: true, 'name=systemd': false });
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
