/**
 * The sandbox base root built from a fixture host: only allowlisted, world-readable parts of /etc come through,
 * accounts are rebuilt without passwords and with the sprite user, and the skeleton has the modes a Linux root
 * has. A prepared root gets a sprite user when it has none. Runs anywhere (ownership checks need root).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chmod, lstat, mkdir, mkdtemp, readFile, readdir, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  accountsFile,
  personalizeLayer,
  prepareHostBase,
  seedLayer,
  usePreparedRoot,
} from '../../src/server/machines/sandbox/rootfs.ts';

const IS_ROOT = process.getuid?.() === 0;

let dir: string;
let host: string;

async function put(path: string, text: string, mode = 0o644): Promise<void> {
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, text);
  await chmod(path, mode);
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'spritzer-rootfs-'));
  host = join(dir, 'host');
  const etc = join(host, 'etc');
  await put(join(etc, 'passwd'), 'root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\nalice:x:1000:1000:Alice:/home/alice:/bin/bash\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n');
  await put(join(etc, 'group'), 'root:x:0:\nsudo:x:27:alice\nalice:x:1000:\nnogroup:x:65534:\n');
  await put(join(etc, 'shadow'), 'root:$6$secret:19000:0:99999:7:::\n', 0o640);
  await put(join(etc, 'gshadow'), 'root:*::\n', 0o640);
  await put(join(etc, 'ssh/ssh_host_ed25519_key'), 'PRIVATE KEY\n', 0o600);
  await put(join(etc, 'ssh/ssh_host_ed25519_key.pub'), 'ssh-ed25519 AAAA host\n');
  await put(join(etc, 'ssh/ssh_config'), 'Host *\n');
  await put(join(etc, 'ssl/private/server.key'), 'PRIVATE KEY\n', 0o600);
  await put(join(etc, 'ssl/certs/ca.pem'), 'CERT\n');
  await put(join(etc, 'npmrc'), '//registry.example/:_authToken=secret\n');
  await put(join(etc, 'pip.conf'), '[global]\nindex-url = https://user:secret@example/simple\n');
  await put(join(etc, 'profile'), 'export PATH\n');
  await put(join(etc, 'profile.d/private.sh'), 'TOKEN=secret\n', 0o600);
  await put(join(etc, 'profile.d/public.sh'), 'umask 022\n');
  await put(join(etc, 'resolv.conf'), 'nameserver 10.0.0.1\n');
  await put(join(etc, 'python3.11/sitecustomize.py'), '# site\n');
  await symlink('../usr/lib/os-release', join(etc, 'os-release'));
  await mkdir(join(host, 'usr/local/lib/python3'), { recursive: true });
  await mkdir(join(host, 'usr/bin'), { recursive: true });
  await symlink('usr/bin', join(host, 'bin'));
  await mkdir(join(host, 'lib64'), { recursive: true });
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('prepareHostBase', () => {
  it('copies only allowlisted, world-readable parts of /etc', async () => {
    const base = join(dir, 'base');
    await prepareHostBase(base, { root: host });
    const etc = join(base, 'root/etc');
    const names = (await readdir(etc)).sort();
    for (const secret of ['shadow', 'gshadow', 'npmrc', 'pip.conf']) expect(names).not.toContain(secret);
    expect(names).toEqual(expect.arrayContaining(['passwd', 'group', 'hostname', 'hosts', 'os-release', 'resolv.conf', 'profile', 'python3.11', 'ssl', 'ssh']));
    expect(await readdir(join(etc, 'ssh'))).toEqual(['ssh_config']);
    expect(await readdir(join(etc, 'ssl'))).toEqual(['certs']);
    expect(await readdir(join(etc, 'profile.d'))).toEqual(['public.sh']);
    expect(await readlink(join(etc, 'os-release'))).toBe('../usr/lib/os-release');
    expect(await readFile(join(etc, 'resolv.conf'), 'utf8')).toBe('nameserver 10.0.0.1\n');
  });

  it('rebuilds passwd and group: system accounts, no host user, the sprite user 1001 at /home/sprite in sudo and users', async () => {
    const base = join(dir, 'base');
    await prepareHostBase(base, { root: host });
    const passwd = await readFile(join(base, 'root/etc/passwd'), 'utf8');
    expect(passwd).not.toContain('alice');
    expect(passwd).toContain('root:x:0:0:root:/root:/bin/bash\n');
    expect(passwd).toContain('nobody:x:65534:');
    expect(passwd.trim().split('\n').at(-1)).toBe('sprite:x:1001:1001::/home/sprite:/bin/bash');
    const group = await readFile(join(base, 'root/etc/group'), 'utf8');
    expect(group).toBe('root:x:0:\nsudo:x:27:sprite\nnogroup:x:65534:\nusers:x:100:sprite\nsprite:x:1001:\n');
  });

  it('lays out a skeleton root with Linux modes and merged-usr links, and overlays /usr and real top-level dirs', async () => {
    const base = join(dir, 'base');
    const root = await prepareHostBase(base, { root: host });
    expect(root.trees).toEqual([
      { target: '/', lower: join(base, 'root'), name: 'root' },
      { target: '/usr', lower: join(host, 'usr'), name: 'usr' },
      { target: '/lib64', lower: join(host, 'lib64'), name: 'lib64' },
    ]);
    expect((await lstat(base)).mode & 0o777).toBe(0o700);
    expect(await readlink(join(base, 'root/bin'))).toBe('usr/bin');
    const mode = async (p: string) => (await lstat(join(base, 'root', p))).mode & 0o7777;
    expect(await mode('tmp')).toBe(0o1777);
    expect(await mode('var/tmp')).toBe(0o1777);
    expect(await mode('root')).toBe(0o700);
    expect(await mode('home/sprite')).toBe(0o755);
    if (IS_ROOT) expect(await lstat(join(base, 'root/home/sprite'))).toMatchObject({ uid: 1001, gid: 1001 });
    for (const hidden of ['work', 'srv/x', 'var/lib/x']) await expect(lstat(join(base, 'root', hidden))).rejects.toThrow();
  });

  it.skipIf(!IS_ROOT)('hides what not every host user may read with whiteouts above the host tree, keeping the directories above them as they are', async () => {
    await put(join(host, 'usr/share/doc/readme'), 'public\n');
    await put(join(host, 'usr/share/doc/key'), 'secret\n', 0o600);
    await put(join(host, 'usr/share/doc/group'), 'secret\n', 0o640);
    await put(join(host, 'usr/lib/private/file'), 'secret\n');
    await chmod(join(host, 'usr/lib/private'), 0o700);
    await put(join(host, 'usr/lib/listless/file'), 'secret\n');
    await chmod(join(host, 'usr/lib/listless'), 0o711);
    await chmod(join(host, 'usr/share/doc'), 0o2755);
    const root = await prepareHostBase(join(dir, 'base'), { root: host });
    const usr = root.trees.find((t) => t.target === '/usr')!;
    expect(usr.hidden).toBe(join(dir, 'base/hidden/usr'));
    const whiteout = async (p: string) => {
      const st = await lstat(join(usr.hidden!, p));
      return st.isCharacterDevice() && st.rdev === 0;
    };
    for (const p of ['share/doc/key', 'share/doc/group', 'lib/private', 'lib/listless']) expect(await whiteout(p), p).toBe(true);
    expect(await readdir(join(usr.hidden!, 'share/doc'))).toEqual(['group', 'key']);
    const [hostDoc, layerDoc] = [await lstat(join(host, 'usr/share/doc')), await lstat(join(usr.hidden!, 'share/doc'))];
    expect([layerDoc.mode, layerDoc.uid, layerDoc.gid, Math.trunc(layerDoc.mtimeMs)]).toEqual([hostDoc.mode, hostDoc.uid, hostDoc.gid, Math.trunc(hostDoc.mtimeMs)]);
    // A tree with nothing to hide gets no layer.
    expect(root.trees.find((t) => t.target === '/lib64')!.hidden).toBeUndefined();
  });
});

describe('seedLayer and personalizeLayer', () => {
  it('gives every tree an upper and work dir, a sprite-owned /usr/local, and names the sprite in /etc', async () => {
    const root = await prepareHostBase(join(dir, 'base'), { root: host });
    const layer = join(dir, 'layer');
    await seedLayer(layer, root);
    await personalizeLayer(layer, root, 'my-sprite');
    expect((await readdir(layer)).sort()).toEqual(['lib64', 'root', 'usr']);
    for (const t of ['root', 'usr', 'lib64']) expect((await readdir(join(layer, t))).sort()).toEqual(['upper', 'work']);
    expect(await readFile(join(layer, 'root/upper/etc/hostname'), 'utf8')).toBe('my-sprite\n');
    expect(await readFile(join(layer, 'root/upper/etc/hosts'), 'utf8')).toContain('127.0.1.1\tmy-sprite\n');
    await lstat(join(layer, 'usr/upper/local/lib/python3'));
    if (IS_ROOT) expect(await lstat(join(layer, 'usr/upper/local'))).toMatchObject({ uid: 1001, gid: 1001 });
  });

  it('adds a sprite user and home to a prepared root that has none', async () => {
    const prepared = join(dir, 'prepared');
    await put(join(prepared, 'bin/sh'), '#!/bin/true\n', 0o755);
    await put(join(prepared, 'etc/passwd'), 'root:x:0:0:root:/root:/bin/bash\n');
    await put(join(prepared, 'etc/group'), 'root:x:0:\n');
    const root = await usePreparedRoot(prepared);
    expect(root.trees).toEqual([{ target: '/', lower: prepared, name: 'root' }]);
    const layer = join(dir, 'layer');
    await seedLayer(layer, root);
    await personalizeLayer(layer, root, 'p1');
    expect(await readFile(join(layer, 'root/upper/etc/passwd'), 'utf8')).toBe('root:x:0:0:root:/root:/bin/bash\nsprite:x:1001:1001::/home/sprite:/bin/bash\n');
    expect(await readFile(join(layer, 'root/upper/etc/group'), 'utf8')).toBe('root:x:0:\nsudo:x:27:sprite\nusers:x:100:sprite\nsprite:x:1001:\n');
    const home = await lstat(join(layer, 'root/upper/home/sprite'));
    if (IS_ROOT) expect(home).toMatchObject({ uid: 1001, gid: 1001 });
  });

  it('adds to a prepared root only what its sprite user lacks (its memberships here), writing no file that needs nothing', async () => {
    const prepared = join(dir, 'prepared');
    await put(join(prepared, 'bin/sh'), '#!/bin/true\n', 0o755);
    await put(join(prepared, 'etc/passwd'), 'root:x:0:0:root:/root:/bin/bash\nsprite:x:1001:1001::/home/sprite:/bin/bash\n');
    await put(join(prepared, 'etc/group'), 'root:x:0:\nsudo:x:27:ubuntu\nusers:x:100:\nsprite:x:1001:\n');
    const root = await usePreparedRoot(prepared);
    const layer = join(dir, 'layer');
    await seedLayer(layer, root);
    await personalizeLayer(layer, root, 'p2');
    await expect(lstat(join(layer, 'root/upper/etc/passwd'))).rejects.toThrow(/ENOENT/);
    expect(await readFile(join(layer, 'root/upper/etc/group'), 'utf8')).toBe('root:x:0:\nsudo:x:27:ubuntu,sprite\nusers:x:100:sprite\nsprite:x:1001:\n');
  });

  it('refuses a prepared root without /bin/sh', async () => {
    await mkdir(join(dir, 'empty'));
    await expect(usePreparedRoot(join(dir, 'empty'))).rejects.toThrow(/not a root filesystem/);
  });
});

describe('accountsFile', () => {
  it('blanks password fields and group member lists, and drops host users', () => {
    expect(accountsFile('root:$6$hash:0:0:root:/root:/bin/sh\nbob:x:1001:1001::/home/bob:/bin/sh\nann:x:1000:1000::/home/ann:/bin/sh\n', 'passwd')).toBe(
      'root:x:0:0:root:/root:/bin/sh\nsprite:x:1001:1001::/home/sprite:/bin/bash\n',
    );
    expect(accountsFile('adm:x:4:root,bob\nsudo:x:27:bob\nbob:x:1001:\n', 'group')).toBe('adm:x:4:\nsudo:x:27:sprite\nusers:x:100:sprite\nsprite:x:1001:\n');
  });
});
