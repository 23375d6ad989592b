/**
 * Root inside a sandbox sprite is not root outside: each sprite, its agent included, runs in a user namespace of its
 * own whose ids map to a host range of its own (two sprites never share a host uid), the read-only base still looks
 * root-owned inside (idmapped mounts), what the sprite writes is owned on the host by its range, the range comes
 * back with a sprite kept in a data dir, and a layer of the older layout (host ids 0 and 1000) is moved into its
 * range once. Skips with the reason printed where the sandbox cannot run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lchown, lstat, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentBundle } from '../support/agent.ts';
import { DEFAULT_ID_RANGE_SIZE, LAYER_IDS_FILE } from '../../src/server/machines/sandbox/id-ranges.ts';
import { DEFAULT_ID_BASE } from '../../src/server/config/sprite-resources.ts';
import { SandboxMachineFactory, type SandboxMachine } from '../../src/server/machines/sandbox/sandbox-machine.ts';
import { announceSkip, exec, execAsRoot, hostUidOf } from './support.ts';
import type { DiskRows } from '../../src/server/machines/port.ts';

const skip = announceSkip('sandbox user namespace tests');

describe.skipIf(skip)('sandbox user namespaces', () => {
  let factory: SandboxMachineFactory;
  let alpha: SandboxMachine;
  let beta: SandboxMachine;

  beforeAll(async () => {
    await agentBundle();
    factory = await SandboxMachineFactory.open({ limits: { pids: 512 } });
    [alpha, beta] = await Promise.all([factory.create({ name: 'alpha', id: 'ns-alpha' }), factory.create({ name: 'beta', id: 'ns-beta' })]);
  });

  afterAll(async () => {
    await factory?.close();
  });

  it('runs each sprite, its agent included, as a host uid range of its own: no two sprites share one, none is root', async () => {
    const [a, b] = [await hostUidOf(alpha.initPid!), await hostUidOf(beta.initPid!)];
    expect(a).toBeGreaterThanOrEqual(DEFAULT_ID_BASE);
    expect(b).toBeGreaterThanOrEqual(DEFAULT_ID_BASE);
    expect(Math.abs(a - b)).toBeGreaterThanOrEqual(DEFAULT_ID_RANGE_SIZE);
    // Inside, the agent is root; its map is one range of 65536 ids starting at its host uid.
    const inside = await execAsRoot(alpha, 'id -u; cat /proc/self/uid_map /proc/self/gid_map');
    expect(inside.out.trim().split(/\s+/)).toEqual(['0', '0', String(a), String(DEFAULT_ID_RANGE_SIZE), '0', String(a), String(DEFAULT_ID_RANGE_SIZE)]);
    // A sprite user's long-running process: host uid a + 1001, beta's its own.
    const sleeping = exec(alpha, 'exec sleep 30');
    try {
      await expect.poll(async () => (await alpha.processes()).pids.length, { timeout: 10_000 }).toBeGreaterThan(3);
      const uids = await Promise.all((await alpha.processes()).pids.map((p) => hostUidOf(p).catch(() => -1)));
      expect(uids).toContain(a + 1001);
      // Every process of the sprite, the outer bubblewrap too, is in its range.
      expect(uids.filter((u) => u >= 0 && (u < a || u >= a + DEFAULT_ID_RANGE_SIZE))).toEqual([]);
    } finally {
      await alpha.stop();
      await sleeping;
    }
  });

  it('shows the read-only base root-owned inside, and the sprite user’s home as its own', async () => {
    const r = await exec(alpha, 'stat -c "%u:%g %n" / /usr /usr/bin/ls /etc/passwd /root /home/sprite; test -w /usr/bin/ls && echo writable || echo not-writable');
    // An exec session holds CAP_DAC_OVERRIDE (docs/fidelity.md "Root-level writes"): test(1) asks faccessat with
    // AT_EACCESS, which counts it, so the base's files read writable; a write copies up into the sprite's layer.
    expect(r.out).toBe('0:0 /\n0:0 /usr\n0:0 /usr/bin/ls\n0:0 /etc/passwd\n0:0 /root\n1001:1001 /home/sprite\nwritable\n');
    // Root inside changes the base only in its own layer (copy-up), as before.
    expect((await execAsRoot(alpha, 'echo "# mine" >> /etc/profile && tail -1 /etc/profile')).out).toBe('# mine\n');
    expect((await exec(beta, 'tail -1 /etc/profile')).out).not.toBe('# mine\n');
  });

  it('owns what the sprite writes, on the host, by the sprite’s range', async () => {
    const base = await hostUidOf(alpha.initPid!);
    await exec(alpha, 'echo mine > /home/sprite/owned; mkdir -p /tmp/d');
    await execAsRoot(alpha, 'echo root > /root/owned');
    const layer = alpha.paths.layer;
    const user = await stat(join(layer, 'root/upper/home/sprite/owned'));
    const root = await stat(join(layer, 'root/upper/root/owned'));
    expect([user.uid, user.gid]).toEqual([base + 1001, base + 1001]);
    expect([root.uid, root.gid]).toEqual([base, base]);
    // The sprite's host dir (its mount points, its agent's socket dir) is its own uid's alone.
    const dir = await stat(alpha.paths.spriteDir);
    expect([dir.uid, dir.mode & 0o777]).toEqual([base, 0o700]);
  });

  it('gives a sprite kept in a data dir its range back, and moves an older layout’s layer (host ids 0 and 1000, the sprite user then) into it once, 1000 becoming 1001', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'spritzer-ns-'));
    const spec = { name: 'kept', id: 'ns-kept' };
    const f = await SandboxMachineFactory.open({ dataDir, persist: true, limits: { pids: 256 } });
    try {
      let m = await f.create(spec);
      const first = await hostUidOf(m.initPid!);
      await exec(m, 'echo old > /home/sprite/legacy');
      // The sandbox names its disk by its layer: it keeps nothing in the data dir's rows, so any use of them throws.
      const disk = { spriteId: spec.id, rows: new Proxy({} as DiskRows, { get: () => { throw new Error('the sandbox keeps no rows'); } }) };
      const saved = f.persistence!.save(m, disk);
      const layer = m.paths.layer;
      await m.halt();

      // Make the layer what an older spritzer left: host ids are the ids inside, and no ids.json.
      const unshift = async (path: string): Promise<void> => {
        const st = await lstat(path);
        const back = (id: number) => (id >= first && id < first + DEFAULT_ID_RANGE_SIZE ? id - first : id); // overlay's own work files are host root's
        await lchown(path, back(st.uid), back(st.gid));
        if (st.isDirectory()) for (const name of await readdir(path)) await unshift(join(path, name));
      };
      await rm(join(layer, LAYER_IDS_FILE));
      for (const tree of await readdir(layer)) await unshift(join(layer, tree));
      // ... whose sprite user was uid/gid 1000.
      await lchown(join(layer, 'root/upper/home/sprite/legacy'), 1000, 1000);

      m = (await f.persistence!.reattach(spec, saved, disk)) as SandboxMachine;
      expect(await hostUidOf(m.initPid!)).toBe(first);
      const r = await exec(m, 'cat /home/sprite/legacy && echo new >> /home/sprite/legacy && stat -c %u /home/sprite/legacy');
      expect(r.out).toBe('old\n1001\n');
      expect((await stat(join(layer, 'root/upper/home/sprite/legacy'))).uid).toBe(first + 1001);
      expect(JSON.parse(await readFile(join(layer, LAYER_IDS_FILE), 'utf8'))).toEqual({ layout: 3, hostBase: first, size: DEFAULT_ID_RANGE_SIZE });

      // A layout this spritzer does not know is refused, naming it: the sprite is kept unbooted with that reason
      // (a bad boot loses nothing), and the disk stays.
      await m.halt();
      await writeFile(join(layer, LAYER_IDS_FILE), '{"layout":4,"hostBase":1,"size":65536}\n');
      m = (await f.persistence!.reattach(spec, saved, disk)) as SandboxMachine;
      expect(m.bootFailure).toMatch(/layout 4 is not one this spritzer knows \(3\)/);
      expect((await stat(join(layer, 'root/upper/home/sprite/legacy'))).isFile()).toBe(true);
    } finally {
      await f.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
