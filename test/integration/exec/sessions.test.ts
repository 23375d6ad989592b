/**
 * Exec sessions and TTY exec end to end (docs/wire-reference.md §4.5–4.9), over WebSocket and HTTP only: sessions that
 * outlive their socket (TTY, `detachable`, `max_run_after_disconnect`), the session list, attach by path and by
 * legacy `?id=` (session_info, scrollback, live output), kill in its query and body forms, restore ending
 * sessions, and the TTY size, resize and exit/close rules. Time runs on a FakeClock. The shell engine delivers a
 * command's output when it ends, so scrollback comes from a thin engine wrapper: `with-banner TEXT CMD…` writes
 * TEXT at once, then runs `CMD…` in the shell engine.
 */
import { STDIN_IDLE_AFTER_DATA_MS } from '../../../src/server/machines/memory/shell/engine.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { api, execQuery, memoryMachines, wsExec, TOKEN } from '../../support/server.ts';
import { startServer, defaultDeps, type RunningServer } from '../../../src/server/server.ts';
import { createEngine } from '../../../src/server/machines/memory/engines.ts';
import type { ExecEngine } from '../../../src/server/machines/memory/engine.ts';
import { FakeClock } from '../../../src/server/core/clock.ts';
import { SequentialIds } from '../../../src/server/core/ids.ts';

type Event = { kind: 'text'; value: any } | { kind: 'binary'; bytes: Buffer };

/** A WebSocket exec client that records every message and lets a test wait for one. */
class Client {
  readonly events: Event[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private waiters: Array<() => void> = [];

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data, isBinary) => {
      this.events.push(isBinary ? { kind: 'binary', bytes: Buffer.from(data as Buffer) } : { kind: 'text', value: JSON.parse(data.toString()) });
      this.wake();
    });
    this.closed = new Promise((resolve) => ws.on('close', (code, reason) => (resolve({ code, reason: reason.toString() }), this.wake())));
  }

  /** Opens `path` (with the query) on the server and resolves once the socket is open. */
  static open(base: string, path: string): Promise<Client> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(base.replace(/^http/, 'ws') + path, { headers: { Authorization: `Bearer ${TOKEN}` } });
      const client = new Client(ws);
      ws.once('open', () => resolve(client));
      ws.once('unexpected-response', (_req, res) => reject(Object.assign(new Error(`handshake ${res.statusCode}`), { status: res.statusCode })));
      ws.once('error', reject);
    });
  }

  /** Resolves with the first recorded event matching `pred` (waiting for it if needed). */
  async next(pred: (e: Event) => boolean, what = 'event'): Promise<Event> {
    for (;;) {
      const found = this.events.find(pred);
      if (found) return found;
      if (this.ws.readyState === WebSocket.CLOSED) throw new Error(`socket closed before ${what}`);
      await new Promise<void>((r) => this.waiters.push(r));
    }
  }

  sessionInfo(): Promise<any> {
    return this.next((e) => e.kind === 'text' && e.value.type === 'session_info', 'session_info').then((e) => (e as { value: any }).value);
  }

  /** Raw bytes of every binary frame so far (TTY output). */
  output(): string {
    return Buffer.concat(this.events.flatMap((e) => (e.kind === 'binary' ? [e.bytes] : []))).toString();
  }

  /** Waits for a ping round trip: the server has handled every message sent before it. */
  sync(): Promise<void> {
    return new Promise((resolve) => {
      this.ws.once('pong', () => resolve());
      this.ws.ping();
    });
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const r of w) r();
  }
}

/** Polls `probe` until it returns a truthy value. */
async function until<T>(probe: () => Promise<T | undefined | false>, what: string): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const v = await probe();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`timed out waiting for ${what}`);
}

function ndjson(text: string): any[] {
  return text.split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

/** The shell engine, plus `with-banner TEXT CMD…`: TEXT is written at once, then `CMD…` runs in the shell. */
function withBanner(inner: ExecEngine): ExecEngine {
  return {
    name: inner.name,
    start(sprite, req, io, opts) {
      if (req.argv[0] !== 'with-banner') return inner.start(sprite, req, io, opts);
      const proc = inner.start(sprite, { ...req, argv: req.argv.slice(2), path: undefined }, io, opts);
      queueMicrotask(() => io.stdout(new TextEncoder().encode(req.argv[1])));
      return proc;
    },
  };
}

const DAY_MS = 24 * 3_600_000;
/** A command that runs until it is ended: one shell-engine `sleep` lasts an hour at most (just-bash), so a loop of them. */
const SLEEP_ON = ['sh', '-c', 'while :; do sleep 3600; done'];
const clock = new FakeClock();
let srv: RunningServer;
let call: ReturnType<typeof api>;
beforeAll(async () => {
  srv = await startServer(
    defaultDeps({ clock, ids: new SequentialIds(), machines: memoryMachines(withBanner(createEngine('shell', { clock, stdinGraceMs: 30 })), clock), token: TOKEN }),
  );
  call = api(srv.url);
  await call('POST', '/v1/sprites', { name: 'box' });
});
afterAll(() => srv.close());

const execPath = (argv: string[], opts: Parameters<typeof execQuery>[1] = {}) => `/v1/sprites/box/exec?${execQuery(argv, opts)}`;
const listed = async (id: string) => ((await call('GET', '/v1/sprites/box/exec')).json.sessions as any[]).find((s) => s.id === id);
/** Waits until the server has noticed that no client is attached to session `id` any more. */
const detached = (id: string) => until(async () => (await listed(id))?.is_active === false, `session ${id} detached`);
const gone = (id: string) => until(async () => (await listed(id)) === undefined, `session ${id} gone`);

/** Starts a command, returns its client and session id. */
async function start(argv: string[], opts: Parameters<typeof execQuery>[1] = {}): Promise<{ client: Client; id: string; info: any }> {
  const client = await Client.open(srv.url, execPath(argv, opts));
  const info = await client.sessionInfo();
  return { client, id: info.session_id, info };
}

describe('listExecSessions', () => {
  it('lists a running TTY session with the fields the SDKs parse', async () => {
    const { client, id, info } = await start(['sh', '-c', 'sleep 100'], { tty: true, stdin: false });
    expect(id).toMatch(/^\d+$/);
    expect(info).toMatchObject({ tty: true, is_owner: true, rows: 24, cols: 80 });
    const s = await listed(id);
    expect(s).toMatchObject({ id, tty: true, workdir: '/home/sprite', is_active: true, bytes_per_second: 0 });
    expect(typeof s.command).toBe('string');
    expect(s.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,6})?Z$/);
    expect(Date.parse(s.created)).toBe(clock.now());
    expect(Date.parse(s.last_activity)).not.toBeNaN();
    const r = await call('GET', '/v1/sprites/box/exec');
    expect(r.json.count).toBe(r.json.sessions.length);
    client.ws.close(1000);
    await detached(id);
  });
});

describe('execCommand sessions after the socket drops', () => {
  it('a TTY session keeps running indefinitely', async () => {
    const { client, id } = await start(['sh', '-c', 'sleep 1000'], { tty: true, stdin: false });
    client.ws.close(1000);
    await detached(id);
    clock.advance(600_000);
    expect(await listed(id)).toMatchObject({ id, tty: true, is_active: false });
  });

  it('a detachable=true non-TTY session keeps running past 10 s', async () => {
    const { client, id, info } = await start(['sleep', '1000'], { extra: { detachable: 'true' } });
    expect(info.tty).toBe(false);
    client.ws.close(1000);
    await detached(id);
    clock.advance(60_000);
    expect(await listed(id)).toMatchObject({ id, tty: false });
  });

  it('a plain non-TTY command is killed as soon as its socket drops', async () => {
    const { client, id } = await start(['sleep', '1000']);
    client.ws.close(1000);
    await gone(id);
  });

  it('a plain non-TTY command whose client vanishes (TCP reset, no close frame) is killed too', async () => {
    const { client, id } = await start(['sleep', '1000']);
    (client.ws as unknown as { _socket: import('node:net').Socket })._socket.resetAndDestroy();
    await gone(id);
  });

  it('max_run_after_disconnect=10s keeps a non-TTY command 10 s after its socket drops', async () => {
    const { client, id } = await start(['sleep', '1000'], { extra: { max_run_after_disconnect: '10s' } });
    client.ws.close(1000);
    await detached(id);
    clock.advance(9_999);
    expect(await listed(id)).toBeDefined();
    clock.advance(1);
    await gone(id);
  });

  it('max_run_after_disconnect=1s ends a non-TTY command one second after its socket drops', async () => {
    const later = await start(['sleep', '1000'], { extra: { max_run_after_disconnect: '1s' } });
    later.client.ws.close(1000);
    await detached(later.id);
    clock.advance(999);
    expect(await listed(later.id)).toBeDefined();
    clock.advance(1);
    await gone(later.id);
  });

  it('max_run_after_disconnect=0 keeps a non-TTY command forever: listed, not active, attached with its scrollback, killed', async () => {
    const { client, id } = await start(['with-banner', 'serving\n', ...SLEEP_ON], { extra: { max_run_after_disconnect: '0' } });
    await client.next((e) => e.kind === 'binary', 'banner');
    client.ws.close(1000);
    await detached(id);
    clock.advance(10 * DAY_MS);
    expect(await listed(id)).toMatchObject({ id, tty: false, is_active: false });
    expect((await call('GET', `/v1/sprites/box/exec/${id}`)).json).toMatchObject({ id, is_active: false });

    const attached = await Client.open(srv.url, `/v1/sprites/box/exec/${id}?stdin=false`);
    await attached.next((e) => e.kind === 'binary', 'scrollback');
    expect(attached.events[0]).toMatchObject({ kind: 'text', value: { type: 'session_info', session_id: id, tty: false } });
    expect(Buffer.concat(attached.events.flatMap((e) => (e.kind === 'binary' ? [e.bytes] : []))).toString()).toBe('\x01serving\n');
    attached.ws.close(1000);
    await detached(id);
    clock.advance(DAY_MS);
    expect(await listed(id)).toMatchObject({ is_active: false });

    const kill = await call('POST', `/v1/sprites/box/exec/${id}/kill?signal=TERM`);
    expect(ndjson(kill.text).at(-1)).toEqual({ type: 'complete', exit_code: 143 });
    await gone(id);
  });

  it('max_run_after_disconnect=720h keeps a non-TTY command 720 hours, longer than one timer holds', async () => {
    const { client, id } = await start(SLEEP_ON, { extra: { max_run_after_disconnect: '720h' } });
    client.ws.close(1000);
    await detached(id);
    clock.advance(30 * DAY_MS - 1);
    expect(await listed(id)).toMatchObject({ id, is_active: false });
    clock.advance(1);
    await gone(id);
  });
});

describe('attachExecSession', () => {
  it('by /exec/{id}: session_info (tty) first, then the scrollback, then live output, exit and close 1000', async () => {
    const { client, id } = await start(['with-banner', 'banner\r\n', 'sh', '-c', 'sleep 100; echo live'], { tty: true, stdin: false });
    await client.next((e) => e.kind === 'binary', 'banner');
    client.ws.close(1000);
    await detached(id);

    const attached = await Client.open(srv.url, `/v1/sprites/box/exec/${id}?stdin=true`);
    await attached.next((e) => e.kind === 'binary', 'scrollback');
    expect(attached.events[0]).toMatchObject({ kind: 'text', value: { type: 'session_info', session_id: id, tty: true } });
    expect(attached.output()).toBe('banner\r\n');
    expect((await listed(id)).is_active).toBe(true);

    clock.advance(100_000);
    const { code } = await attached.closed;
    expect(attached.output()).toBe('banner\r\nlive\r\n');
    const texts = attached.events.filter((e) => e.kind === 'text').map((e) => (e as { value: any }).value);
    expect(texts.at(-1)).toEqual({ type: 'exit', exit_code: 0 });
    expect(code).toBe(1000);
    await gone(id);
  });

  it('by legacy /exec?id=: session_info (tty false), framed scrollback, live output, [3,code]', async () => {
    const { client, id } = await start(['with-banner', 'early\n', 'sh', '-c', 'sleep 50; echo late; exit 4'], { extra: { detachable: 'true' } });
    await client.next((e) => e.kind === 'binary', 'banner');
    client.ws.close(1000);
    await detached(id);

    const rec = wsExec(srv.url, `/v1/sprites/box/exec?id=${id}&stdin=false`);
    await until(async () => (await listed(id))?.is_active === true, 'attached');
    clock.advance(50_000);
    const r = await rec;
    expect(r.events[0]).toMatchObject({ kind: 'text', value: { type: 'session_info', session_id: id, tty: false } });
    expect(r.stdout).toBe('early\nlate\n');
    expect(r.exitCode).toBe(4);
    expect(r.closeCode).toBe(1000);
  });

  it('answers 404 before the upgrade for an unknown id, in both forms', async () => {
    await expect(Client.open(srv.url, '/v1/sprites/box/exec/424242')).rejects.toMatchObject({ status: 404 });
    await expect(Client.open(srv.url, '/v1/sprites/box/exec?id=424242')).rejects.toMatchObject({ status: 404 });
  });
});

describe('killExecSession', () => {
  it.each([
    ['query TERM', '?signal=TERM', undefined, 'SIGTERM', 143],
    ['query SIGHUP', '?signal=SIGHUP&timeout=0s', undefined, 'SIGHUP', 129],
    ['JSON body SIGINT with integer timeout', '', { signal: 'SIGINT', timeout: 10 }, 'SIGINT', 130],
    ['JSON body KILL', '', { signal: 'KILL' }, 'SIGKILL', 137],
    ['both, the body winning', '?signal=TERM', { signal: 'KILL' }, 'SIGKILL', 137],
  ])('%s → NDJSON signal, exited, complete {exit_code}', async (_what, query, body, signal, code) => {
    const { client, id } = await start(['sleep', '1000'], { extra: { detachable: 'true' } });
    const r = await call('POST', `/v1/sprites/box/exec/${id}/kill${query}`, body);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('application/x-ndjson');
    const lines = ndjson(r.text);
    expect(lines.map((l) => l.type)).toEqual(['signal', 'exited', 'complete']);
    expect(lines[0]).toMatchObject({ signal, pid: Number(id), message: expect.any(String) });
    expect(lines[2]).toEqual({ type: 'complete', exit_code: code });
    // the attached client sees the exit too
    await client.closed;
    expect(Array.from(client.events.at(-1)!.kind === 'binary' ? (client.events.at(-1) as { bytes: Buffer }).bytes : [])).toEqual([3, code]);
    await gone(id);
  });

  it('a timeout of 720h waits that long for a command that ignores the signal, then KILL', async () => {
    const { client, id } = await start(['sh', '-c', `trap '' TERM; ${SLEEP_ON[2]}`], { extra: { detachable: 'true' } });
    const res = await fetch(`${srv.url}/v1/sprites/box/exec/${id}/kill?signal=TERM&timeout=720h`, { method: 'POST', headers: { Authorization: `Bearer ${TOKEN}` } });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = decoder.decode((await reader.read()).value, { stream: true });
    expect(ndjson(text).map((l) => l.type)).toEqual(['signal']);
    clock.advance(30 * DAY_MS - 1);
    expect(await listed(id)).toMatchObject({ id });
    clock.advance(1);
    for (let r = await reader.read(); !r.done; r = await reader.read()) text += decoder.decode(r.value, { stream: true });
    expect(ndjson(text).map((l) => l.type)).toEqual(['signal', 'timeout', 'killed', 'complete']);
    expect(ndjson(text).at(-1)).toEqual({ type: 'complete', exit_code: 137 });
    await client.closed;
    await gone(id);
  });

  it('answers 404 for an unknown session', async () => {
    const r = await call('POST', '/v1/sprites/box/exec/424242/kill?signal=TERM');
    expect(r.status).toBe(404);
  });

  it('answers 410 for a session that already exited (GO treats it as done)', async () => {
    const { client, id } = await start(['sleep', '1000'], { extra: { detachable: 'true' } });
    expect((await call('POST', `/v1/sprites/box/exec/${id}/kill?signal=KILL`)).status).toBe(200);
    await client.closed;
    await gone(id);
    const again = await call('POST', `/v1/sprites/box/exec/${id}/kill?signal=TERM`);
    expect(again.status).toBe(410);
    expect(again.text).toBe(`session already exited: ${id}\n`);
  });
});

describe('restoreCheckpoint ends running sessions', () => {
  it('a live TTY session exits and leaves the list when the sprite is restored', async () => {
    expect((await call('POST', '/v1/sprites/box/checkpoint', {})).status).toBe(200);
    const { client, id } = await start(['sh', '-c', 'sleep 1000'], { tty: true, stdin: false });
    const restored = await call('POST', '/v1/sprites/box/checkpoints/v1/restore');
    expect(restored.status).toBe(200);
    const { code } = await client.closed;
    expect(code).not.toBe(1000);
    expect(await listed(id)).toBeUndefined();
    const exit = client.events.find((e) => e.kind === 'text' && e.value.type === 'exit') as { value: any };
    expect(exit.value.exit_code).toBe(137);
  });
});

describe('execCommand with tty=true', () => {
  it('rows=24&cols=80: stty size prints 24 80; exit 0 is the exit text message, then close 1000', async () => {
    const { client, info } = await start(['sh', '-c', 'stty size'], { tty: true, rows: 24, cols: 80, stdin: false });
    expect(info).toMatchObject({ tty: true, rows: 24, cols: 80 });
    const { code } = await client.closed;
    expect(client.output()).toBe('24 80\r\n');
    expect(client.events.at(-1)).toEqual({ kind: 'text', value: { type: 'exit', exit_code: 0 } });
    expect(code).toBe(1000);
  });

  it('a resize text message changes the size the command sees', async () => {
    const { client } = await start(['sh', '-c', 'stty size; sleep 5; stty size'], { tty: true, rows: 24, cols: 80, stdin: false });
    client.ws.send(JSON.stringify({ type: 'resize', cols: 120, rows: 40 }));
    await client.sync();
    clock.advance(5_000);
    await client.closed;
    expect(client.output()).toBe('24 80\r\n40 120\r\n');
  });

  it('stdin=true (the SDKs\' default) waits for input, then runs; raw bytes reach the command', async () => {
    const { client } = await start(['cat'], { tty: true, stdin: true });
    client.ws.send(Buffer.from('typed'));
    await client.sync();
    clock.advance(STDIN_IDLE_AFTER_DATA_MS); // no EOF in TTY mode: the idle window after data starts it
    await client.closed;
    expect(client.output()).toBe('typed');
  });

  it('a non-zero exit is the exit text message, then close 1011', async () => {
    const { client } = await start(['sh', '-c', 'echo bye; exit 3'], { tty: true, stdin: false });
    const { code } = await client.closed;
    expect(client.output()).toBe('bye\r\n');
    expect(client.events.at(-1)).toEqual({ kind: 'text', value: { type: 'exit', exit_code: 3 } });
    expect(code).toBe(1011);
  });
});
