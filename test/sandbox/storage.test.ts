/**
 * Sprite layers and checkpoints, in both storage modes (btrfs subvolumes on a loop-mounted image, and the copy
 * fallback): a checkpoint of files written by real commands, taken while the sprite runs, is rewound by a restore;
 * release and destroy delete what they should; close leaves no mount and no file; a restarted spritzer cleans up
 * what a killed one left. Skips with the reason printed where the sandbox cannot run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { lstat, mkdir, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { claimDataDir } from '../../src/server/machines/sandbox/data-dir.ts';
import { launch } from '../../src/server/machines/sandbox/launcher.ts';
import { Storage, type StorageMode } from '../../src/server/machines/sandbox/storage.ts';
import { DiskGroups } from '../../src/server/machines/sandbox/disk-groups.ts';
import { announceSkip, mountsUnder, openBox, type Box } from './support.ts';

const skip = announceSkip('sandbox storage tests');
const hasBtrfs = spawnSync('mkfs.btrfs', ['--version']).status === 0;
if (!skip && !hasBtrfs) console.warn('btrfs storage tests skipped: btrfs-progs is not installed');

const MODES: Array<[StorageMode, boolean]> = [
  ['btrfs', !skip && hasBtrfs],
  ['copy', !skip],
];

describe.each(MODES)('storage in %s mode', (mode, runs) => {
  let box: Box;

  beforeAll(async () => {
    if (!runs) return;
    box = await openBox(mode);
    expect(box.storage.mode).toBe(mode);
  });

  afterAll(async () => {
    await box?.close();
  });

  it.runIf(runs)('a checkpoint of files written by real commands is rewound by restore, and stays usable', async () => {
    await box.create('s1');
    await box.sh('s1', 'cd /home/sprite && echo one > a && mkdir -p d/e && echo deep > d/e/f && ln -s a link && seq 1 1000 > /tmp/big');
    const snap = await box.storage.snapshot('s1');
    await box.sh('s1', 'cd /home/sprite && echo two > a && rm -r d && echo new > b && rm /etc/hostname /tmp/big && echo usr > /usr/local/bin/tool');
    const state = 'cd /home/sprite; ls -A; cat a d/e/f; readlink link; cat /etc/hostname; wc -l < /tmp/big; ls /usr/local/bin/tool 2>&1';
    const changed = await box.sh('s1', state);
    expect(changed.out).toContain('b\n');

    await box.storage.restore('s1', snap);
    const rewound = await box.sh('s1', state);
    expect(rewound.out).toBe('a\nd\nlink\none\ndeep\na\ns1\n1000\nls: cannot access \'/usr/local/bin/tool\': No such file or directory\n');

    await box.sh('s1', 'echo three > /home/sprite/a');
    await box.storage.restore('s1', snap);
    expect((await box.sh('s1', 'cat /home/sprite/a')).out).toBe('one\n');
  });

  it.runIf(runs)('takes the checkpoint while the sprite runs, without stopping it', async () => {
    await box.create('live');
    const sb = await launch({
      hostname: 'live', base: box.base, layerDir: box.storage.layerDir('live'), mergedDir: join(box.storage.spriteDir('live'), 'merged'),
      // Each count is written whole (a rename): a copy-mode checkpoint copies files one by one while they change, and
      // `echo > file` truncates before it writes, so a copy could catch the file empty between the two.
      command: ['sh', '-c', 'i=0; while :; do i=$((i+1)); echo $i > /home/sprite/counter.new; mv /home/sprite/counter.new /home/sprite/counter; sleep 0.01; done'],
    });
    try {
      const counter = join(box.storage.layerDir('live'), 'root/upper/home/sprite/counter');
      await expect.poll(() => readFile(counter, 'utf8').catch(() => ''), { timeout: 10_000 }).toMatch(/^\d+\n$/);
      const snap = await box.storage.snapshot('live');
      expect(await readFile(join(snap.path, 'root/upper/home/sprite/counter'), 'utf8')).toMatch(/^\d+\n$/);
      process.kill(sb.initPid, 0); // still running
      const before = Number(await readFile(counter, 'utf8'));
      await expect.poll(async () => Number(await readFile(counter, 'utf8').catch(() => '0')), { timeout: 10_000 }).toBeGreaterThan(before);
      if (mode === 'btrfs') {
        const ro = spawnSync('btrfs', ['property', 'get', '-ts', snap.path, 'ro'], { encoding: 'utf8' }).stdout;
        expect(ro.trim()).toBe('ro=true');
      }
    } finally {
      await sb.kill();
    }
  });

  it.runIf(runs)('release deletes a snapshot (idempotently); destroy deletes the layer, its snapshots and its dirs', async () => {
    await box.create('gone');
    await box.sh('gone', 'echo x > /home/sprite/x');
    const s1 = await box.storage.snapshot('gone');
    const s2 = await box.storage.snapshot('gone');
    await box.storage.release(s1);
    await box.storage.release(s1);
    await expect(lstat(s1.path)).rejects.toMatchObject({ code: 'ENOENT' });
    await lstat(s2.path);
    await box.storage.destroy('gone');
    for (const p of [s2.path, box.storage.layerDir('gone'), box.storage.spriteDir('gone')]) {
      await expect(lstat(p)).rejects.toMatchObject({ code: 'ENOENT' });
    }
    expect(await mountsUnder(box.storage.spriteDir('gone'))).toEqual([]);
  });

  it.runIf(runs)('counts what the sprite wrote as its usage', async () => {
    await box.create('usage');
    const before = await box.storage.usage('usage');
    await box.sh('usage', 'head -c 100000 /dev/zero > /home/sprite/z; ln /home/sprite/z /home/sprite/z2; echo hi > /tmp/h');
    const after = await box.storage.usage('usage');
    expect(after.files - before.files).toBe(2);
    expect(after.bytes - before.bytes).toBe(100_003);
  });

  it.runIf(runs)('refuses to restore another sprite’s snapshot', async () => {
    await box.create('other');
    const snap = await box.storage.snapshot('other');
    await expect(box.storage.restore('s1', snap)).rejects.toThrow(/cannot restore/);
  });
});

describe.skipIf(skip)('data dir', () => {
  it.runIf(hasBtrfs)('the btrfs image’s loop device does direct I/O (no second page cache, no copy by kernel threads) and goes with the mount', async () => {
    const box = await openBox('btrfs');
    const vol = join(box.dataDir, 'vol');
    const dev = spawnSync('findmnt', ['--noheadings', '--output', 'SOURCE', '--mountpoint', vol], { encoding: 'utf8' }).stdout.trim();
    try {
      expect(dev).toMatch(/^\/dev\/loop\d+$/);
      expect((await readFile(`/sys/block/${dev.slice(5)}/loop/dio`, 'utf8')).trim()).toBe('1');
    } finally {
      await box.close();
    }
    const attached = spawnSync('losetup', ['--list', '--noheadings', '--output', 'NAME'], { encoding: 'utf8' }).stdout;
    expect(attached.split('\n')).not.toContain(dev);
  });

  it('close leaves no mount and no file behind', async () => {
    const box = await openBox();
    await box.create('c1');
    await box.sh('c1', 'echo x > /home/sprite/x');
    await box.storage.snapshot('c1');
    await box.close();
    expect(await mountsUnder(box.dataDir)).toEqual([]);
    await expect(lstat(box.dataDir)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('a claim kills a leftover sandbox of an earlier run that names a path under the data dir', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'spritzer-claim-'));
    await mkdir(join(dataDir, 'x'));
    const leftover = spawn('bwrap', ['--ro-bind', '/usr', '/usr', '--symlink', 'usr/bin', '/bin', '--symlink', 'usr/lib', '/lib',
      '--symlink', 'usr/lib64', '/lib64', '--bind', join(dataDir, 'x'), '/mnt', '--unshare-pid', '--die-with-parent', '--', '/usr/bin/sleep', '1000'], { detached: true, stdio: 'ignore' });
    const exited = new Promise((r) => leftover.once('exit', r));
    try {
      await expect.poll(() => readFile(`/proc/${leftover.pid}/cmdline`, 'utf8').catch(() => ''), { timeout: 10_000 }).toContain('sleep');
      const claim = await claimDataDir(dataDir);
      expect(claim.stale.processes).toBeGreaterThanOrEqual(1);
      await exited;
      await claim.release();
    } finally {
      leftover.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it.runIf(hasBtrfs)('uses a data dir that is already on btrfs directly, without an image', async () => {
    const outer = await openBox('btrfs');
    try {
      const nested = await Storage.open({ dataDir: join(outer.dataDir, 'vol', 'nested') });
      try {
        expect(nested.mode).toBe('btrfs');
        await expect(lstat(join(outer.dataDir, 'vol', 'nested', 'btrfs.img'))).rejects.toMatchObject({ code: 'ENOENT' });
        await nested.createTemplate(async () => undefined);
        await nested.createLayer('n1');
        const snap = await nested.snapshot('n1');
        expect((await lstat(snap.path)).ino).toBe(256); // a subvolume of its own
      } finally {
        await nested.close({ removeDataDir: true });
      }
    } finally {
      await outer.close();
    }
  });

  it('a restarted spritzer refuses a data dir in use, then cleans up what a killed one left', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'spritzer-restart-'));
    const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'fixtures/leave-behind.ts'), dataDir], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const ready = await new Promise<string>((resolve, reject) => {
        child.stdout!.on('data', (d: Buffer) => resolve(d.toString()));
        child.once('exit', (code) => reject(new Error(`fixture exited ${code}`)));
      });
      expect(ready).toMatch(/^ready /);
      await expect(Storage.open({ dataDir })).rejects.toThrow(/in use by another spritzer/);
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await gone;
      const left = await mountsUnder(dataDir);
      if (ready.includes('btrfs')) expect(left.length).toBeGreaterThan(0);

      const storage = await Storage.open({ dataDir });
      try {
        const mounts = await mountsUnder(dataDir);
        expect(mounts).toEqual(storage.mode === 'btrfs' ? [join(dataDir, 'vol')] : []);
        expect(await readdir(join(dataDir, 'vol/layers'))).toEqual([]);
        await expect(lstat(join(dataDir, 'sprites/stale'))).rejects.toMatchObject({ code: 'ENOENT' });
      } finally {
        await storage.close({ removeDataDir: true });
      }
      expect(await mountsUnder(dataDir)).toEqual([]);
    } finally {
      child.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true }).catch(() => undefined);
    }
  });
});

describe.skipIf(skip || !hasBtrfs)('disk groups (btrfs qgroups)', () => {
  /** The volume's level-1 qgroups: id → { referenced, limit, children }. */
  function groups(vol: string): Map<string, { referenced: number; limit: string; children: string[] }> {
    const out = spawnSync('btrfs', ['qgroup', 'show', '-rc', '--raw', vol], { encoding: 'utf8' }).stdout;
    const found = new Map<string, { referenced: number; limit: string; children: string[] }>();
    for (const m of out.matchAll(/^(1\/\d+)\s+(\d+)\s+\d+\s+(\S+)\s+(\S+)/gm)) {
      found.set(m[1]!, { referenced: Number(m[2]), limit: m[3]!, children: m[4] === '-' ? [] : m[4]!.split(',') });
    }
    return found;
  }

  it('a layer and its snapshots share one group, kept across a restart; a deleted sprite leaves no group', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'spritzer-groups-'));
    const vol = join(dataDir, 'vol');
    let storage = await Storage.open({ dataDir, mode: 'btrfs', keep: true });
    try {
      await storage.createTemplate(async () => undefined);
      await storage.createLayer('g1');
      spawnSync('dd', ['if=/dev/urandom', `of=${join(storage.layerDir('g1'), 'kept')}`, 'bs=1M', 'count=4', 'status=none']);
      await storage.snapshot('g1');
      await rm(join(storage.layerDir('g1'), 'kept'));
      spawnSync('sync');
      const [group, made] = [...groups(vol)][0]!;
      expect(made.children).toHaveLength(2);
      // What only the checkpoint keeps still counts.
      expect(made.referenced).toBeGreaterThanOrEqual(4 * 1024 * 1024);
      await storage.close();

      storage = await Storage.open({ dataDir, mode: 'btrfs', keep: true });
      await storage.setQuota('g1', 64 * 1024 * 1024);
      expect(groups(vol).get(group)).toMatchObject({ limit: String(64 * 1024 * 1024) });
      await storage.destroy('g1');
      spawnSync('btrfs', ['subvolume', 'sync', vol]);
      await storage.close();
      storage = await Storage.open({ dataDir, mode: 'btrfs', keep: true });
      expect([...groups(vol).keys()]).toEqual([]);
    } finally {
      await storage.close({ removeDataDir: true });
    }
  });

  it('two servers sharing one filesystem never give two sprites the same group', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'spritzer-groups2-'));
    const storage = await Storage.open({ dataDir, mode: 'btrfs' });
    try {
      const vol = join(dataDir, 'vol');
      // Both read the same highest number at start.
      const [a, b] = [await DiskGroups.open(vol, { sweep: false }), await DiskGroups.open(vol, { sweep: false })];
      const first = await a.create('a');
      const second = await b.create('b');
      expect(second).not.toBe(first);
      expect([...groups(vol).keys()].sort()).toEqual([first, second].sort());
    } finally {
      await storage.close({ removeDataDir: true });
    }
  });
});
