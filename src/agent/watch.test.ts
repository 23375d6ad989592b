/**
 * File change notifications through the real agent: create / write / chmod / remove with `isDir` and `size` (the
 * VfsChange vocabulary), recursive or one level, and a watched path that does not exist yet.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { VfsChange } from '../server/machines/port.ts';
import { startTestAgent, type TestAgent } from '../../test/support/agent.ts';

const LINUX = process.platform === 'linux';
if (!LINUX) console.warn('agent watch tests skipped: the agent needs Linux (inotify)');

const text = (s: string) => new TextEncoder().encode(s);

describe.skipIf(!LINUX)('agent watch', { timeout: 30000 }, () => {
  let agent: TestAgent;
  beforeAll(async () => {
    agent = await startTestAgent();
  }, 30000);
  afterAll(async () => {
    await agent?.stop();
  });

  /** Starts a watch and waits until it is armed (a probe file's creation is seen, then dropped). */
  async function watching(path: string, recursive: boolean, probeDir = path): Promise<{ changes: VfsChange[]; stop: () => void }> {
    const changes: VfsChange[] = [];
    const stop = agent.client.watch(path, { recursive }, (batch) => changes.push(...batch));
    const probe = `${probeDir}/.probe-${Math.random().toString(36).slice(2)}`;
    await vi.waitFor(async () => {
      await agent.client.fs.writeFile(probe, text(''));
      expect(changes.some((c) => c.path === probe)).toBe(true);
    }, { timeout: 15000, interval: 50 });
    await agent.client.fs.rm(probe);
    await vi.waitFor(() => expect(changes.some((c) => c.path === probe && c.event === 'remove')).toBe(true), { timeout: 15000 });
    changes.length = 0;
    return { changes, stop };
  }

  it('reports create, write, chmod and remove with isDir and size', async () => {
    await agent.client.fs.mkdir('/home/sprite/w1');
    const w = await watching('/home/sprite/w1', true);
    const fs = agent.client.fs;
    await fs.writeFile('/home/sprite/w1/a.txt', text('hello'));
    // The create may be seen between open(O_CREAT) and the write (size 0, then a write of 5): both are right.
    await vi.waitFor(() => expect(w.changes).toContainEqual({ path: '/home/sprite/w1/a.txt', event: 'create', isDir: false, size: expect.any(Number) }), { timeout: 15000 });
    await vi.waitFor(() => expect(w.changes.filter((c) => c.path === '/home/sprite/w1/a.txt').at(-1)?.size).toBe(5), { timeout: 15000 });
    await fs.writeFile('/home/sprite/w1/a.txt', text('!'), { append: true });
    await vi.waitFor(() => expect(w.changes).toContainEqual({ path: '/home/sprite/w1/a.txt', event: 'write', isDir: false, size: 6 }), { timeout: 15000 });
    await fs.chmod('/home/sprite/w1/a.txt', 0o600);
    await vi.waitFor(() => expect(w.changes).toContainEqual({ path: '/home/sprite/w1/a.txt', event: 'chmod', isDir: false, size: 6 }), { timeout: 15000 });
    await fs.rm('/home/sprite/w1/a.txt');
    await vi.waitFor(() => expect(w.changes).toContainEqual({ path: '/home/sprite/w1/a.txt', event: 'remove', isDir: false, size: 0 }), { timeout: 15000 });
    w.stop();
  });

  it('follows new directories when recursive, and stops at one level otherwise', async () => {
    await agent.client.fs.mkdir('/home/sprite/w2');
    const deep = await watching('/home/sprite/w2', true);
    const flat = await watching('/home/sprite/w2', false);
    await agent.client.fs.mkdir('/home/sprite/w2/sub');
    await vi.waitFor(() => expect(deep.changes).toContainEqual({ path: '/home/sprite/w2/sub', event: 'create', isDir: true, size: 0 }), { timeout: 15000 });
    await agent.client.fs.writeFile('/home/sprite/w2/sub/inner.txt', text('abc'));
    // As for a.txt above: the create may be seen before the write (size 0, then a write of 3).
    await vi.waitFor(() => expect(deep.changes).toContainEqual({ path: '/home/sprite/w2/sub/inner.txt', event: 'create', isDir: false, size: expect.any(Number) }), { timeout: 15000 });
    await vi.waitFor(() => expect(deep.changes.filter((c) => c.path === '/home/sprite/w2/sub/inner.txt').at(-1)?.size).toBe(3), { timeout: 15000 });
    await agent.client.fs.writeFile('/home/sprite/w2/top.txt', text('t'));
    await vi.waitFor(() => expect(flat.changes.map((c) => c.path)).toContain('/home/sprite/w2/top.txt'), { timeout: 15000 });
    expect(flat.changes.map((c) => c.path)).toContain('/home/sprite/w2/sub');
    expect(flat.changes.map((c) => c.path)).not.toContain('/home/sprite/w2/sub/inner.txt');
    deep.stop();
    flat.stop();
  });

  it('reports a removed directory tree, and stops reporting after unsubscribe', async () => {
    await agent.client.fs.writeFile('/home/sprite/w3/d/f', text('f'), { mkdirParents: true });
    const w = await watching('/home/sprite/w3', true);
    await agent.client.fs.rm('/home/sprite/w3/d', { recursive: true });
    await vi.waitFor(() => {
      expect(w.changes).toContainEqual({ path: '/home/sprite/w3/d', event: 'remove', isDir: true, size: 0 });
      expect(w.changes).toContainEqual({ path: '/home/sprite/w3/d/f', event: 'remove', isDir: false, size: 0 });
    }, { timeout: 15000 });
    w.stop();
    const other = await watching('/home/sprite/w3', true);
    w.changes.length = 0;
    await agent.client.fs.writeFile('/home/sprite/w3/after', text('x'));
    await vi.waitFor(() => expect(other.changes.map((c) => c.path)).toContain('/home/sprite/w3/after'), { timeout: 15000 });
    expect(w.changes).toEqual([]);
    other.stop();
  });

  it('waits for a path that does not exist yet', async () => {
    const changes: VfsChange[] = [];
    const stop = agent.client.watch('/home/sprite/later/app', { recursive: true }, (b) => changes.push(...b));
    // Armed on the nearest existing ancestor; the path appears in two steps.
    await vi.waitFor(async () => {
      await agent.client.fs.mkdir('/home/sprite/later/app', { recursive: true });
      await agent.client.fs.writeFile('/home/sprite/later/app/main.py', text('print(1)\n'));
      expect(changes).toContainEqual({ path: '/home/sprite/later/app/main.py', event: expect.stringMatching(/create|write/), isDir: false, size: 9 });
    }, { timeout: 15000, interval: 100 });
    expect(changes.every((c) => c.path.startsWith('/home/sprite/later/app'))).toBe(true);
    stop();
  });
});
