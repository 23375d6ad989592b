// The watch sockets (docs/wire-reference.md §6.2–6.3): ports/watch opens with a `port_list` snapshot; fs/watch takes a
// `subscribe` and then reports changes under the paths, whoever makes them. Every frame is validated against
// the AsyncAPI messages. The fs/watch event vocabulary is UNCONFIRMED, so its tests are emulatorOnly.
import { beforeAll, describe, expect } from 'vitest';
import { useConformance, verified, emulatorOnly, connectWs, runExec } from './support/index.ts';

const { target, call, sprites } = useConformance();
let box: string;
beforeAll(async () => {
  box = (await sprites.create()).name;
});

describe('watchPorts', () => {
  verified.it('sends a port_list snapshot first', async () => {
    const conn = await connectWs(target(), `/v1/sprites/${box}/ports/watch`, { output: 'watchPorts' });
    const first = await conn.waitFor(() => true);
    expect(first.message).toBe('portList');
    expect(Array.isArray(first.json.ports)).toBe(true);
    expect(conn.violation).toBeUndefined();
    conn.ws.close(1000);
    expect((await conn.closed).code).toBe(1000);
  });
});

describe('watchFilesystem', () => {
  emulatorOnly.it('reports a file written through the fs API and one written by exec under a subscribed path', async () => {
    const conn = await connectWs(target(), `/v1/sprites/${box}/fs/watch`, { output: 'watchFilesystemOutput' });
    conn.sendText({ type: 'subscribe', paths: ['/home/sprite/watched'], recursive: true, workingDir: '/' });
    await conn.waitFor((f) => f.json?.type === 'subscribed');
    const w = await call('PUT', `/v1/sprites/${box}/fs/write`, { query: { path: '/home/sprite/watched/a.txt', mkdirParents: true }, body: 'a' });
    expect(w.status).toBe(200);
    const byApi = await conn.waitFor((f) => f.json?.type === 'event' && f.json.path === '/home/sprite/watched/a.txt');
    expect(byApi.json.event).toBeTruthy();
    await runExec(target(), box, ['sh', '-c', 'echo b > /home/sprite/watched/b.txt']);
    await conn.waitFor((f) => f.json?.type === 'event' && f.json.path === '/home/sprite/watched/b.txt');
    await call('PUT', `/v1/sprites/${box}/fs/write`, { query: { path: '/home/sprite/elsewhere.txt' }, body: 'x' });
    expect(conn.frames.some((f) => f.json?.path === '/home/sprite/elsewhere.txt')).toBe(false);
    expect(conn.violation).toBeUndefined();
    conn.ws.close(1000);
    await conn.closed;
  });

  emulatorOnly.it('closes 1008 when the first message is not a subscribe', async () => {
    const conn = await connectWs(target(), `/v1/sprites/${box}/fs/watch`, { output: 'watchFilesystemOutput' });
    conn.sendText({ type: 'subscribe', paths: [] });
    expect((await conn.closed).code).toBe(1008);
  });
});
