/**
 * Memory: deleting a sprite leaves nothing of it behind, so a long-running server does not grow. After sprites that
 * used every per-sprite registry (files, an HTTP exec, a detachable session still running, a service, a task-free
 * policy change and a checkpoint) are deleted through the API, the server holds no timer, no machine, no process
 * and no sprite more than before they were created. Counts only; no timing (the clock is fake).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { api, startTestServer, TOKEN, execQuery } from '../../support/server.ts';
import { FakeClock } from '../../../src/server/core/clock.ts';
import { createEngine } from '../../../src/server/machines/memory/engines.ts';
import { MemoryMachineFactory } from '../../../src/server/machines/memory/machine.ts';
import type { Machine, MachineFactory, MachineSpec } from '../../../src/server/machines/port.ts';
import type { RunningServer } from '../../../src/server/server.ts';

/** A factory that counts the machines it made and that are not destroyed yet. */
class CountingFactory implements MachineFactory {
  live = 0;
  constructor(private readonly inner: MachineFactory) {}
  get engine() {
    return this.inner.engine;
  }
  get snapshotMode() {
    return this.inner.snapshotMode;
  }
  async create(spec: MachineSpec): Promise<Machine> {
    const m = await this.inner.create(spec);
    this.live++;
    const destroy = m.destroy.bind(m);
    let destroyed = false;
    m.destroy = async () => {
      if (!destroyed) {
        destroyed = true;
        this.live--;
      }
      await destroy();
    };
    return m;
  }
  close() {
    return this.inner.close();
  }
  get persistence() {
    return this.inner.persistence;
  }
  warm() {
    return this.inner.warm();
  }
  adoptExisting() {
    return this.inner.adoptExisting();
  }
  detach() {
    this.inner.detach();
  }
}

const SPRITES = 12;
let srv: RunningServer;
let clock: FakeClock;
let machines: CountingFactory;
let call: ReturnType<typeof api>;

beforeAll(async () => {
  clock = new FakeClock();
  machines = new CountingFactory(new MemoryMachineFactory(createEngine('shell', { clock, stdinGraceMs: 0 }), clock));
  srv = await startTestServer('shell', { clock, machines });
  call = api(srv.url);
});
afterAll(() => srv.close());

/** Opens a detachable WebSocket exec of `argv`, waits for its session_info, then drops the socket (the session stays). */
function detachedSession(name: string, argv: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${srv.url.replace('http', 'ws')}/v1/sprites/${name}/exec?${execQuery(argv, { extra: { detachable: 'true' } })}`, {
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    ws.on('message', (data, binary) => {
      if (!binary && JSON.parse(String(data)).type === 'session_info') {
        ws.terminate();
        resolve();
      }
    });
    ws.on('error', reject);
  });
}

describe('deleting sprites', () => {
  it('leaves no sprite, machine, process or timer behind', async () => {
    const before = { timers: clock.pending(), machines: machines.live };
    for (let i = 0; i < SPRITES; i++) {
      const name = `leak-${i}`;
      expect((await call('POST', '/v1/sprites', { name })).status).toBe(201);
      expect((await call('PUT', `/v1/sprites/${name}/fs/write?path=/home/sprite/f.txt`, 'x'.repeat(1024))).status).toBe(200);
      const exec = await fetch(`${srv.url}/v1/sprites/${name}/exec?${execQuery(['echo', 'ok'])}`, { method: 'POST', headers: { Authorization: `Bearer ${TOKEN}` } });
      expect(exec.status).toBe(200);
      await exec.arrayBuffer();
      await detachedSession(name, ['sleep', '1000']);
      expect((await call('PUT', `/v1/sprites/${name}/services/svc?duration=0`, { cmd: 'sleep', args: ['1000'] })).status).toBeLessThan(300);
      expect((await call('POST', `/v1/sprites/${name}/policy/network`, { rules: [{ domain: 'example.com', action: 'allow' }] })).status).toBe(204);
      const cp = await fetch(`${srv.url}/v1/sprites/${name}/checkpoint`, { method: 'POST', headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' }, body: '{}' });
      expect(cp.status).toBe(200);
      await cp.arrayBuffer();
    }
    expect(machines.live).toBe(before.machines + SPRITES);
    const sessions = await call('GET', '/v1/sprites/leak-0/exec');
    expect(sessions.json.count).toBeGreaterThan(0); // the detached session is still running: there is something to clean
    expect(clock.pending()).toBeGreaterThan(before.timers); // sleeps and services hold timers until their sprite goes

    for (let i = 0; i < SPRITES; i++) expect((await call('DELETE', `/v1/sprites/leak-${i}`)).status).toBe(204);

    expect(srv.spritzer.ctx.model.all()).toHaveLength(0);
    expect(machines.live).toBe(before.machines);
    expect(clock.pending()).toBe(before.timers);
    expect((await call('GET', '/v1/sprites')).json.sprites).toEqual([]);
  });
});
