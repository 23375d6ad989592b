import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { api, startTestServer, wsExec, execQuery, TOKEN } from '../../support/server.ts';
import type { RunningServer } from '../../../src/server/server.ts';

let srv: RunningServer;
let call: ReturnType<typeof api>;
beforeAll(async () => {
  srv = await startTestServer('shell');
  call = api(srv.url);
  await call('POST', '/v1/sprites', { name: 'watched' });
  await call('POST', '/v1/sprites', { name: 'elsewhere' });
});
afterAll(() => srv.close());

/** Opens a watch socket and collects its JSON messages. */
function open(path: string) {
  const ws = new WebSocket(srv.url.replace(/^http/, 'ws') + path, { headers: { Authorization: `Bearer ${TOKEN}` } });
  const messages: any[] = [];
  const waiters: Array<() => void> = [];
  ws.on('message', (d) => {
    messages.push(JSON.parse(d.toString()));
    waiters.splice(0).forEach((w) => w());
  });
  const closed = new Promise<{ code: number; reason: string }>((r) => ws.on('close', (code, reason) => r({ code, reason: reason.toString() })));
  const opened = new Promise<void>((r, j) => {
    ws.on('open', () => r());
    ws.on('error', j);
  });
  async function until(pred: (m: any[]) => boolean): Promise<any[]> {
    while (!pred(messages)) await new Promise<void>((r) => waiters.push(r));
    return messages;
  }
  return { ws, messages, closed, opened, until };
}

describe('watchPorts', () => {
  it('sends a port_list snapshot first (empty: nothing listens on the in-memory engines)', async () => {
    const w = open('/v1/sprites/watched/ports/watch');
    await w.opened;
    const [first] = await w.until((m) => m.length >= 1);
    expect(first).toEqual({ type: 'port_list', ports: [] });
    w.ws.close();
  });
});

describe('watchFilesystem', () => {
  it('answers subscribed, then reports changes made by the fs API and by exec under the watched path only', async () => {
    const w = open('/v1/sprites/watched/fs/watch');
    await w.opened;
    w.ws.send(JSON.stringify({ type: 'subscribe', paths: ['app'], recursive: true, workingDir: '/home/sprite' }));
    await w.until((m) => m.some((x) => x.type === 'subscribed'));
    expect(w.messages[0]).toEqual({ type: 'subscribed', paths: ['/home/sprite/app'] });
    await call('PUT', '/v1/sprites/watched/fs/write?path=/home/sprite/app/a.txt&mkdirParents=true', 'hello');
    await call('PUT', '/v1/sprites/watched/fs/write?path=/tmp/ignored.txt', 'x');
    await call('PUT', '/v1/sprites/elsewhere/fs/write?path=/home/sprite/app/b.txt&mkdirParents=true', 'x');
    await wsExec(srv.url, `/v1/sprites/watched/exec?${execQuery(['sh', '-c', 'echo more >> /home/sprite/app/a.txt'])}`);
    await call('DELETE', '/v1/sprites/watched/fs/delete?path=/home/sprite/app/a.txt');
    const msgs = await w.until((m) => m.some((x) => x.event === 'remove'));
    // A shell append may reach the filesystem as more than one write (as inotify reports several modifies).
    const events = msgs
      .filter((m) => m.type === 'event')
      .map((m) => [m.event, m.path])
      .filter((e, i, all) => i === 0 || JSON.stringify(e) !== JSON.stringify(all[i - 1]));
    expect(events).toEqual([
      ['create', '/home/sprite/app'],
      ['create', '/home/sprite/app/a.txt'],
      ['write', '/home/sprite/app/a.txt'],
      ['remove', '/home/sprite/app/a.txt'],
    ]);
    for (const m of msgs.filter((x) => x.type === 'event')) expect(Date.parse(m.timestamp)).not.toBeNaN();
    w.ws.close();
  });

  it('closes 1008 on a bad subscribe message', async () => {
    const w = open('/v1/sprites/watched/fs/watch');
    await w.opened;
    w.ws.send(JSON.stringify({ type: 'subscribe', paths: [] }));
    expect((await w.closed).code).toBe(1008);
  });
});
