/**
 * The agent's filesystem operations through the real bundle and AgentClient: MachineFs shapes, VfsError codes with
 * sprite-view paths (never the host's), owner of created nodes, results in the in-memory VFS's order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { symlink } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { VfsError } from '../server/machines/port.ts';
import type { MachineFs } from '../server/machines/port.ts';
import { IS_ROOT, startTestAgent, type TestAgent } from '../../test/support/agent.ts';
import { SPRITE_GID, SPRITE_UID } from '../protocol/sprite-tree.ts';

const LINUX = process.platform === 'linux';
if (!LINUX) console.warn('agent fs tests skipped: the agent needs Linux');

const text = (s: string) => new TextEncoder().encode(s);

describe.skipIf(!LINUX)('agent filesystem', { timeout: 30000 }, () => {
  let agent: TestAgent;
  let fs: MachineFs;
  beforeAll(async () => {
    agent = await startTestAgent();
    fs = agent.client.fs;
  }, 30000);
  afterAll(async () => {
    await agent?.stop();
  });

  async function rejection(p: Promise<unknown>): Promise<VfsError> {
    const err = await p.then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(VfsError);
    expect((err as Error).message).not.toContain(agent.root);
    return err as VfsError;
  }

  it('writes and reads back every byte value; stat has the VfsStat shape', async () => {
    const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
    const st = await fs.writeFile('/home/sprite/bytes.bin', bytes);
    expect(st).toMatchObject({ type: 'file', mode: 0o644, size: 256 });
    expect(Number.isInteger(st.mtimeMs)).toBe(true);
    if (IS_ROOT) expect([st.uid, st.gid]).toEqual([SPRITE_UID, SPRITE_GID]);
    expect([...(await fs.readFile('/home/sprite/bytes.bin'))]).toEqual([...bytes]);
  });

  it('reads a part of a file: from an offset, at most a length, fewer at its end, none past it', async () => {
    const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
    await fs.writeFile('/home/sprite/part.bin', bytes);
    expect([...(await fs.readFile('/home/sprite/part.bin', { offset: 10, length: 3 }))]).toEqual([10, 11, 12]);
    expect([...(await fs.readFile('/home/sprite/part.bin', { offset: 250, length: 100 }))]).toEqual([250, 251, 252, 253, 254, 255]);
    expect((await fs.readFile('/home/sprite/part.bin', { offset: 300, length: 10 })).length).toBe(0);
    expect((await rejection(fs.readFile('/home/sprite', { offset: 0, length: 1 }))).code).toBe('EISDIR');
    expect((await rejection(fs.readFile('/home/sprite/nope', { offset: 0, length: 1 }))).code).toBe('ENOENT');
  });

  it('applies mode to new and existing files, appends, and creates parents on request', async () => {
    expect((await fs.writeFile('/home/sprite/m.sh', text('a'), { mode: 0o755 })).mode).toBe(0o755);
    expect((await fs.writeFile('/home/sprite/m.sh', text('b'), { append: true, mode: 0o700 })).mode).toBe(0o700);
    expect(Buffer.from(await fs.readFile('/home/sprite/m.sh')).toString()).toBe('ab');
    const deep = await fs.writeFile('/home/sprite/x/y/z.txt', text('z'), { mkdirParents: true });
    expect(deep.size).toBe(1);
    expect(await fs.stat('/home/sprite/x/y')).toMatchObject({ type: 'directory', mode: 0o755, size: 4096 });
    const err = await rejection(fs.writeFile('/home/sprite/missing/f', text('x')));
    expect(err.code).toBe('ENOENT');
  });

  it('refuses to read or copy a FIFO or a device (EINVAL, not a regular file) without blocking, and serves what follows', async () => {
    execFileSync('mkfifo', [join(agent.root, 'tmp', 'fifo')]);
    // More reads than libuv has threads: each one blocked a thread for ever when FIFOs were opened blocking.
    const reads = await Promise.all(Array.from({ length: 6 }, () => rejection(fs.readFile('/tmp/fifo'))));
    for (const err of reads) expect(err).toMatchObject({ code: 'EINVAL', path: '/tmp/fifo' });
    expect(reads[0]!.message).toBe("EINVAL: not a regular file, open '/tmp/fifo'");
    expect((await rejection(fs.readFile('/tmp/fifo', { offset: 0, length: 1 }))).code).toBe('EINVAL');
    expect((await rejection(fs.copy('/tmp/fifo', '/tmp/copy'))).code).toBe('EINVAL');
    await symlink('/dev/zero', join(agent.root, 'tmp', 'zero'));
    expect((await rejection(fs.readFile('/tmp/zero'))).code).toBe('EINVAL');
    await fs.writeFile('/tmp/after', text('still here'));
    expect(Buffer.from(await fs.readFile('/tmp/after')).toString()).toBe('still here');
  });

  it('maps errors to VfsError codes with the sprite path', async () => {
    const missing = await rejection(fs.readFile('/home/sprite/nope.txt'));
    expect(missing).toMatchObject({ code: 'ENOENT', path: '/home/sprite/nope.txt' });
    expect(missing.message).toBe("ENOENT: no such file or directory, open '/home/sprite/nope.txt'");
    expect((await rejection(fs.readFile('/home/sprite'))).code).toBe('EISDIR');
    expect((await rejection(fs.writeFile('/home/sprite', text('x')))).code).toBe('EISDIR');
    expect((await rejection(fs.readdir('/home/sprite/bytes.bin'))).code).toBe('ENOTDIR');
    expect((await rejection(fs.mkdir('/home/sprite/bytes.bin'))).code).toBe('EEXIST');
    expect((await rejection(fs.rm('/'))).code).toBe('EINVAL');
  });

  it('lists entries in name order, recursively depth-first, with lstat (symlink target)', async () => {
    await fs.mkdir('/home/sprite/list/b', { recursive: true });
    await fs.writeFile('/home/sprite/list/b/inner', text('i'));
    await fs.writeFile('/home/sprite/list/a', text('a'));
    await symlink('/etc/passwd', join(agent.root, 'home/sprite/list/c'));
    const flat = await fs.readdir('/home/sprite/list');
    expect(flat.map((e) => [e.name, e.path, e.stat.type])).toEqual([
      ['a', '/home/sprite/list/a', 'file'],
      ['b', '/home/sprite/list/b', 'directory'],
      ['c', '/home/sprite/list/c', 'symlink'],
    ]);
    expect(flat[2]!.stat.target).toBe('/etc/passwd');
    expect((await fs.lstat('/home/sprite/list/c')).target).toBe('/etc/passwd');
    const deep = await fs.readdir('/home/sprite/list', { recursive: true });
    expect(deep.map((e) => e.path)).toEqual(['/home/sprite/list/a', '/home/sprite/list/b', '/home/sprite/list/b/inner', '/home/sprite/list/c']);
  });

  it('rm needs recursive for a non-empty directory and reports removed paths top first', async () => {
    await fs.writeFile('/home/sprite/gone/d/f', text('f'), { mkdirParents: true });
    expect((await rejection(fs.rm('/home/sprite/gone'))).code).toBe('ENOTEMPTY');
    expect(await fs.rm('/home/sprite/gone', { recursive: true })).toEqual(['/home/sprite/gone', '/home/sprite/gone/d', '/home/sprite/gone/d/f']);
    expect(await fs.rm('/home/sprite/gone', { force: true })).toEqual([]);
    expect((await rejection(fs.rm('/home/sprite/gone'))).code).toBe('ENOENT');
    await symlink('missing', join(agent.root, 'home/sprite/dangling'));
    expect(await fs.rm('/home/sprite/dangling')).toEqual(['/home/sprite/dangling']);
  });

  it('rename replaces an existing file and refuses a directory onto a file', async () => {
    await fs.writeFile('/home/sprite/r1', text('one'));
    await fs.writeFile('/home/sprite/r2', text('two'));
    await fs.rename('/home/sprite/r1', '/home/sprite/r2');
    expect(Buffer.from(await fs.readFile('/home/sprite/r2')).toString()).toBe('one');
    expect((await rejection(fs.stat('/home/sprite/r1'))).code).toBe('ENOENT');
    await fs.mkdir('/home/sprite/rdir');
    expect((await rejection(fs.rename('/home/sprite/rdir', '/home/sprite/r2'))).code).toBe('ENOTDIR');
    expect((await rejection(fs.rename('/home/sprite/absent', '/home/sprite/r3'))).path).toBe('/home/sprite/absent');
  });

  it('copy copies trees with sizes, keeps modes and symlinks, and refuses to copy into itself', async () => {
    await fs.writeFile('/home/sprite/src/f.txt', text('12345'), { mkdirParents: true, mode: 0o600 });
    await symlink('f.txt', join(agent.root, 'home/sprite/src/link'));
    expect((await rejection(fs.copy('/home/sprite/src', '/home/sprite/dst'))).code).toBe('EISDIR');
    const copied = await fs.copy('/home/sprite/src', '/home/sprite/dst', { recursive: true });
    expect(copied).toEqual([
      { source: '/home/sprite/src', dest: '/home/sprite/dst', size: 0 },
      { source: '/home/sprite/src/f.txt', dest: '/home/sprite/dst/f.txt', size: 5 },
      { source: '/home/sprite/src/link', dest: '/home/sprite/dst/link', size: 0 },
    ]);
    expect((await fs.stat('/home/sprite/dst/f.txt')).mode).toBe(0o600);
    expect((await fs.lstat('/home/sprite/dst/link')).target).toBe('f.txt');
    expect((await rejection(fs.copy('/home/sprite/src', '/home/sprite/src/inner', { recursive: true }))).code).toBe('EINVAL');
  });

  it('chmod and chown report every affected path, skipping symlinks below', async () => {
    await fs.writeFile('/home/sprite/perm/a', text('a'), { mkdirParents: true });
    await symlink('a', join(agent.root, 'home/sprite/perm/l'));
    expect(await fs.chmod('/home/sprite/perm', 0o750, { recursive: true })).toEqual([
      { path: '/home/sprite/perm', mode: 0o750 },
      { path: '/home/sprite/perm/a', mode: 0o750 },
    ]);
    expect((await fs.stat('/home/sprite/perm/a')).mode).toBe(0o750);
    if (IS_ROOT) {
      expect(await fs.chown('/home/sprite/perm/a', 1234, -1)).toEqual([{ path: '/home/sprite/perm/a', uid: 1234, gid: SPRITE_GID }]);
    }
  });

  it('paths are normalised lexically and never climb above the root', async () => {
    await fs.writeFile('/home/sprite/../../tmp/./norm.txt', text('n'));
    expect(Buffer.from(await fs.readFile('/tmp/norm.txt')).toString()).toBe('n');
    expect((await fs.readdir('/../..')).map((e) => e.name)).toEqual(['home', 'tmp']);
  });

  it('usage counts regular files and their bytes', async () => {
    const before = await agent.client.usage();
    await fs.writeFile('/home/sprite/usage/big', new Uint8Array(10000), { mkdirParents: true });
    const after = await agent.client.usage();
    expect(after).toEqual({ bytes: before.bytes + 10000, files: before.files + 1 });
  });
});
