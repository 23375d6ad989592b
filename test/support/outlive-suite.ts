/**
 * One suite for every engine: a command started with `max_run_after_disconnect=0` outlives its client as production
 * keeps it (listed, `is_active` false, attached with its scrollback, killed), serves through `/proxy` where the
 * engine runs real servers, and ends by its own exit, a kill, its linger running out, a restore or a restart of the
 * sprite. The caller starts and stops the server and makes the sprite. Test support only.
 */
import { expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { api, execQuery, TOKEN } from './server.ts';

/**
 * How long a test waits, in real time, after the client left: past the docs' 10 s default for a non-TTY command
 * (spritzer's own default ends it at once), so only `max_run_after_disconnect=0` explains a command still running.
 */
export const PAST_DEFAULT_LINGER_MS = 12_000;

/** A WebSocket exec client: its decoded output so far, its `session_info`, and its close. */
export interface ExecClient {
  ws: WebSocket;
  /** stdout and stderr payloads (non-TTY frames), in order. */
  output(): string;
  info: Promise<{ session_id: string; tty: boolean }>;
  closed: Promise<number>;
  /** Resolves once the output so far matches `re` (rejects when the socket closes first). */
  waitOutput(re: RegExp): Promise<void>;
}

/** Opens `path` (an exec or attach URL) on `base`; resolves once the socket is open. */
export function openExec(base: string, path: string): Promise<ExecClient> {
  const ws = new WebSocket(base.replace(/^http/, 'ws') + path, { headers: { Authorization: `Bearer ${TOKEN}` } });
  const chunks: Buffer[] = [];
  const wakers = new Set<() => void>();
  const wake = () => wakers.forEach((w) => w());
  let onInfo!: (v: { session_id: string; tty: boolean }) => void;
  const client: ExecClient = {
    ws,
    output: () => Buffer.concat(chunks).toString(),
    info: new Promise((r) => (onInfo = r)),
    closed: new Promise((r) => ws.on('close', (code) => (r(code), wake()))),
    waitOutput: (re) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (re.test(client.output())) return wakers.delete(check), resolve();
          if (ws.readyState === WebSocket.CLOSED) wakers.delete(check), reject(new Error(`closed before ${re}: ${JSON.stringify(client.output())}`));
        };
        wakers.add(check);
        check();
      }),
  };
  ws.on('message', (data, isBinary) => {
    const buf = Buffer.from(data as Buffer);
    if (!isBinary) {
      const msg = JSON.parse(buf.toString());
      if (msg.type === 'session_info') onInfo(msg);
    } else if (buf[0] === 1 || buf[0] === 2) chunks.push(buf.subarray(1));
    wake();
  });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(client));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`handshake ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

/**
 * One HTTP/1.0 GET of `/` through the `/proxy` WebSocket to `port` inside sprite `sprite`: the raw response, or null
 * when the dial failed (nothing listens).
 */
export function getViaProxy(base: string, sprite: string, port: number): Promise<string | null> {
  const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/v1/sprites/${sprite}/proxy`, { headers: { Authorization: `Bearer ${TOKEN}` } });
  return new Promise((resolve) => {
    let out = Buffer.alloc(0);
    let connected = false;
    ws.on('open', () => ws.send(JSON.stringify({ host: 'localhost', port })));
    ws.on('message', (data, binary) => {
      if (binary) out = Buffer.concat([out, data as Buffer]);
      else if (JSON.parse(data.toString()).status === 'connected') {
        connected = true;
        ws.send(Buffer.from('GET / HTTP/1.0\r\nHost: localhost\r\n\r\n'));
      }
    });
    ws.on('close', () => resolve(connected ? out.toString() : null));
    ws.on('error', () => resolve(null));
  });
}

/** The live sessions of `sprite` by id. */
export async function sessionsOf(base: string, sprite: string): Promise<Map<string, { is_active: boolean; tty: boolean }>> {
  const r = await api(base)('GET', `/v1/sprites/${sprite}/exec`);
  expect(r.status).toBe(200);
  return new Map((r.json.sessions as Array<{ id: string; is_active: boolean; tty: boolean }>).map((s) => [String(s.id), s]));
}

/** What the suite runs: a long-lived command that prints a banner first (a server on `port` when `port` is set). */
export interface LongCommand {
  argv: string[];
  banner: RegExp;
  /** The port it serves HTTP on, reached through `/proxy`; absent on engines that run no real servers. */
  port?: number;
}

/** `python3 -m http.server PORT` (unbuffered, so its banner reaches the scrollback at once). */
export function httpServer(port: number): LongCommand {
  return {
    argv: ['python3', '-u', '-m', 'http.server', String(port), '--bind', '127.0.0.1'],
    banner: new RegExp(`Serving HTTP on 127\\.0\\.0\\.1 port ${port}`),
    port,
  };
}

/**
 * Starts `cmd` over WebSocket exec with `max_run_after_disconnect` (`linger`), waits for its banner, drops the
 * client and waits until the server saw it go; resolves with the session id.
 */
export async function startAndDrop(base: string, sprite: string, cmd: LongCommand, linger = '0'): Promise<string> {
  const client = await openExec(base, `/v1/sprites/${sprite}/exec?${execQuery(cmd.argv, { extra: { max_run_after_disconnect: linger } })}`);
  const id = String((await client.info).session_id);
  await client.waitOutput(cmd.banner);
  client.ws.terminate();
  await client.closed;
  await expect.poll(async () => (await sessionsOf(base, sprite)).get(id)?.is_active ?? 'gone', { timeout: 10_000 }).toBe(false);
  return id;
}

/**
 * Declares the suite's tests (inside a `describe`) against the server whose URL `base()` gives once it started,
 * on sprite `sprite` (already created). `cmd(n)` is the n-th long-lived command (a fresh port each, where it serves).
 */
export function outliveSuite(base: () => string, sprite: string, cmd: (n: number) => LongCommand): void {
  const call = (...a: Parameters<ReturnType<typeof api>>) => api(base())(...a);
  const serves = async (c: LongCommand) => (c.port === undefined ? undefined : getViaProxy(base(), sprite, c.port));

  it('a command started with max_run_after_disconnect=0 runs on past the default linger: listed, not active, serving, attached with its scrollback, killed', async () => {
    const server = cmd(0);
    const id = await startAndDrop(base(), sprite, server);
    await new Promise((r) => setTimeout(r, PAST_DEFAULT_LINGER_MS));
    expect((await sessionsOf(base(), sprite)).get(id)).toMatchObject({ is_active: false, tty: false });
    expect((await call('GET', `/v1/sprites/${sprite}/exec/${id}`)).json).toMatchObject({ id, is_active: false });
    if (server.port !== undefined) expect(await serves(server)).toMatch(/^HTTP\/1\.0 200/);

    const attached = await openExec(base(), `/v1/sprites/${sprite}/exec/${id}?stdin=false`);
    expect(await attached.info).toMatchObject({ session_id: id, tty: false });
    await attached.waitOutput(server.banner);
    expect((await sessionsOf(base(), sprite)).get(id)?.is_active).toBe(true);
    attached.ws.close(1000);
    await attached.closed;
    await expect.poll(async () => (await sessionsOf(base(), sprite)).get(id)?.is_active ?? 'gone', { timeout: 10_000 }).toBe(false);

    const kill = await call('POST', `/v1/sprites/${sprite}/exec/${id}/kill?signal=TERM&timeout=5s`);
    expect(kill.status).toBe(200);
    expect(kill.text).toContain('"type":"complete"');
    expect((await sessionsOf(base(), sprite)).has(id)).toBe(false);
    if (server.port !== undefined) expect(await serves(server)).toBeNull();
  }, 120_000);

  it('ends when its own linger runs out (max_run_after_disconnect=2s), and by its own exit (a later kill is 410)', async () => {
    const server = cmd(1);
    const id = await startAndDrop(base(), sprite, server, '2s');
    await expect.poll(async () => (await sessionsOf(base(), sprite)).has(id), { timeout: 20_000, interval: 200 }).toBe(false);
    if (server.port !== undefined) expect(await serves(server)).toBeNull();

    const exits = await startAndDrop(base(), sprite, { argv: ['sh', '-c', 'echo up; sleep 2; exit 3'], banner: /up/ });
    await expect.poll(async () => (await sessionsOf(base(), sprite)).has(exits), { timeout: 20_000, interval: 200 }).toBe(false);
    expect((await call('POST', `/v1/sprites/${sprite}/exec/${exits}/kill?signal=TERM`)).status).toBe(410);
  }, 60_000);

  it('a restore or a restart of the sprite ends it, and the list says so', async () => {
    expect((await call('POST', `/v1/sprites/${sprite}/checkpoint`, { comment: 'outlive' })).text).toContain('"type":"complete"');
    const listed = await call('GET', `/v1/sprites/${sprite}/checkpoints`);
    const checkpoint = (listed.json as Array<{ id: string; comment?: string }>).find((c) => c.comment === 'outlive')!.id;
    for (const [n, end] of [
      [2, () => call('POST', `/v1/sprites/${sprite}/checkpoints/${checkpoint}/restore`)],
      [3, () => call('POST', `/v1/sprites/${sprite}/restart`)],
    ] as const) {
      const server = cmd(n);
      const id = await startAndDrop(base(), sprite, server);
      expect((await end()).status).toBe(200);
      expect((await sessionsOf(base(), sprite)).has(id)).toBe(false);
      if (server.port !== undefined) expect(await serves(server)).toBeNull();
    }
  }, 180_000);
}
