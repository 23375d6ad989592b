import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { WebSocketServer, WebSocket as WsWebSocket } from 'ws';
import type { AddressInfo } from 'node:net';
import { startTestServer, TOKEN } from '../../test/support/server.ts';
import type { RunningServer } from '../server/server.ts';
import { FakeClock } from '../server/core/clock.ts';
import { createSpritesClient, ExecProtocolError, SpritesApiError, execQuery, type ExecCommand, type ExecEvent, type WebSocketConstructor } from './index.ts';
import { sdkAgainstSpritzer, type SdkClient } from '../../test/support/sdk.ts';

const text = (parts: Uint8Array[]) => new TextDecoder().decode(Buffer.concat(parts));

/** Reads events until `pred` holds on the collected stdout; returns the stdout so far. */
async function stdoutUntil(it: AsyncIterator<ExecEvent>, pred: (s: string) => boolean): Promise<string> {
  const parts: Uint8Array[] = [];
  while (!pred(text(parts))) {
    const next = await it.next();
    if (next.done) throw new Error(`stream ended with stdout ${JSON.stringify(text(parts))}`);
    if (next.value.type === 'stdout') parts.push(next.value.data);
  }
  return text(parts);
}

describe('run', () => {
  let server: RunningServer;
  let client: SdkClient;
  beforeAll(async () => void ({ server, client } = await sdkAgainstSpritzer()));
  afterAll(() => server.close());

  it.each([0, 1, 42, 255])('reports exit code %i', async (code) => {
    expect((await client.run('box', ['sh', '-c', `exit ${code}`])).exitCode).toBe(code);
  });

  it('keeps stderr apart from stdout', async () => {
    expect(await client.run('box', ['sh', '-c', 'echo out; echo err >&2; exit 3'])).toEqual({ stdout: 'out\n', stderr: 'err\n', exitCode: 3 });
  });

  it('pipes stdin and ends it with EOF', async () => {
    expect(await client.run('box', ['cat'], { stdin: 'line 1\nline 2\n' })).toEqual({ stdout: 'line 1\nline 2\n', stderr: '', exitCode: 0 });
    expect((await client.run('box', ['cat'])).stdout).toBe('');
  });

  it('passes env (replacing the default) and dir', async () => {
    const r = await client.run('box', ['sh', '-c', 'pwd; echo "$FOO"'], { env: { FOO: 'bar' }, dir: '/tmp' });
    expect(r.stdout).toBe('/tmp\nbar\n');
  });

  it('sends the bearer token on the upgrade; a refused handshake is a SpritesApiError with status and body', async () => {
    const err = await client.run('nope', ['true']).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SpritesApiError);
    expect(err).toMatchObject({ status: 404, error: 'sprite not found' });
    const anonymous = createSpritesClient({ baseUrl: server.url, token: '' });
    await expect(anonymous.run('box', ['true'])).rejects.toMatchObject({ name: 'SpritesApiError', status: 401 });
  });

  it('works with an injected WebSocket class', async () => {
    const urls: string[] = [];
    class Recording extends WsWebSocket {
      constructor(url: string, opts: { headers: Record<string, string> }) {
        urls.push(url);
        super(url, opts);
      }
    }
    const injected = createSpritesClient({ baseUrl: server.url, token: TOKEN, WebSocket: Recording as unknown as WebSocketConstructor });
    expect((await injected.run('box', ['echo', 'hi'])).stdout).toBe('hi\n');
    expect(urls[0]).toBe(`${server.url.replace('http', 'ws')}/v1/sprites/box/exec?cmd=echo&cmd=hi&path=echo&stdin=true`);
  });

  it('TTY mode: raw output and the exit message code', async () => {
    const r = await client.run('box', ['sh', '-c', 'echo tty-out; exit 3'], { tty: true, rows: 40, cols: 120 });
    expect(r.stdout).toContain('tty-out');
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(3);
  });
});

describe('spawn and attach', () => {
  let server: RunningServer;
  let client: ReturnType<typeof createSpritesClient>;
  const clock = new FakeClock();
  beforeAll(async () => {
    server = await startTestServer('shell', { clock });
    client = createSpritesClient({ baseUrl: server.url, token: TOKEN });
    await client.createSprite({ name: 'box' });
  });
  afterAll(() => server.close());

  it('streams stdout events, takes stdin frames and EOF, and resolves exit', async () => {
    const cmd = await client.spawn('box', ['cat']);
    expect(cmd.sessionInfo).toMatchObject({ type: 'session_info', tty: false, is_owner: true });
    cmd.writeStdin('abc');
    cmd.writeStdin(new TextEncoder().encode('def'));
    cmd.endStdin();
    const events = [];
    for await (const e of cmd) events.push(e);
    expect(text(events.flatMap((e) => (e.type === 'stdout' ? [e.data] : [])))).toBe('abcdef');
    expect(events.at(-1)).toEqual({ type: 'exit', exitCode: 0 });
    expect(await cmd.exit).toBe(0);
  });

  it('signal ends a sleeping command with 128 + the signal number', async () => {
    const cmd = await client.spawn('box', ['sleep', '1000']);
    cmd.endStdin();
    cmd.signal('TERM');
    expect(await cmd.exit).toBe(143);
  });

  it('attach: session_info of the running session, live output and the exit of a detachable TTY session', async () => {
    const owner = await client.spawn('box', ['sh', '-c', 'sleep 100; echo live'], { tty: true, detachable: true, rows: 30, cols: 100 });
    const id = owner.sessionInfo!.session_id;
    expect(owner.sessionInfo).toMatchObject({ tty: true, rows: 30, cols: 100 });
    expect((await client.listExecSessions('box')).sessions.map((s) => s.id)).toContain(id);
    owner.resize(120, 40);

    const attached: ExecCommand = await client.attach('box', id);
    expect(attached.sessionInfo).toMatchObject({ session_id: id, tty: true });
    const it = attached[Symbol.asyncIterator]();
    const live = stdoutUntil(it, (s) => s.includes('live'));
    // The engine's stdin grace and `sleep` both run on the fake clock, and each timer is scheduled only after some
    // socket I/O: advance it until the session ends, letting real time pass between steps (a loaded machine may
    // need many turns of the event loop before the next timer exists; the test's own timeout bounds the loop).
    let done = false;
    void attached.exit.finally(() => (done = true));
    while (!done) {
      clock.advance(50_000);
      await new Promise((r) => setTimeout(r, 1));
    }
    expect(await live).toContain('live');
    expect(await attached.exit).toBe(0);
    expect(await owner.exit).toBe(0);
  });

  it('attach to a dead id is refused at the handshake with 404', async () => {
    await expect(client.attach('box', '999999')).rejects.toMatchObject({ name: 'SpritesApiError', status: 404 });
  });
});

describe('ExecProtocolError', () => {
  /** A server that upgrades, sends session_info and some output, then closes without an exit frame. */
  async function rudeServer(close: (ws: WsWebSocket) => void, onMessage?: (ws: WsWebSocket) => void): Promise<{ url: string; stop(): Promise<void>; auth: string[] }> {
    const auth: string[] = [];
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    wss.on('connection', (ws, req) => {
      auth.push(String(req.headers.authorization));
      ws.send(JSON.stringify({ type: 'session_info', session_id: '1', command: 'x', created: 0, cols: 0, rows: 0, is_owner: true, tty: false }));
      ws.send(Uint8Array.of(1, 104, 105));
      if (onMessage) ws.on('message', () => onMessage(ws));
      else close(ws);
    });
    await new Promise((r) => wss.once('listening', r));
    const { port } = wss.address() as AddressInfo;
    return { url: `http://127.0.0.1:${port}`, auth, stop: () => new Promise((r) => wss.close(() => r())) };
  }

  it('closed_before_exit when the socket closes normally without an exit frame (never exit 0)', async () => {
    const srv = await rudeServer((ws) => ws.close(1000));
    try {
      const client = createSpritesClient({ baseUrl: srv.url, token: 'tok' });
      const err = await client.run('box', ['true']).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ExecProtocolError);
      expect(err).toMatchObject({ code: 'closed_before_exit', closeCode: 1000 });
      expect(srv.auth).toEqual(['Bearer tok']);
      const cmd = await client.spawn('box', ['true']);
      await expect(cmd.exit).rejects.toMatchObject({ code: 'closed_before_exit' });
    } finally {
      await srv.stop();
    }
  });

  it('closed_before_exit when the connection drops', async () => {
    const srv = await rudeServer(() => undefined, (ws) => ws.terminate());
    try {
      const cmd = await createSpritesClient({ baseUrl: srv.url, token: 'tok' }).spawn('box', ['true']);
      cmd.endStdin();
      const events: ExecEvent[] = [];
      await expect(
        (async () => {
          for await (const e of cmd) events.push(e);
        })(),
      ).rejects.toMatchObject({ code: 'closed_before_exit', closeCode: 1006 });
      expect(events).toEqual([{ type: 'stdout', data: new Uint8Array([104, 105]) }]);
      await expect(cmd.exit).rejects.toBeInstanceOf(ExecProtocolError);
    } finally {
      await srv.stop();
    }
  });

  it('bad_frame for an unknown stream id', async () => {
    const srv = await rudeServer((ws) => ws.send(Uint8Array.of(9, 1)));
    try {
      const err = await createSpritesClient({ baseUrl: srv.url, token: 'tok' }).run('box', ['true']).catch((e: unknown) => e);
      expect(err).toMatchObject({ name: 'ExecProtocolError', code: 'bad_frame' });
    } finally {
      await srv.stop();
    }
  });
});

describe('execQuery', () => {
  it('builds the query the JS SDK sends', () => {
    const q = execQuery(['sh', '-c', 'echo hi'], { env: ['A=1', 'B=2'], dir: '/tmp', tty: true, rows: 24, cols: 80, detachable: true });
    expect(q.toString()).toBe('cmd=sh&cmd=-c&cmd=echo+hi&path=sh&stdin=true&env=A%3D1&env=B%3D2&dir=%2Ftmp&tty=true&rows=24&cols=80&detachable=true');
    expect(() => execQuery([])).toThrow(TypeError);
  });
});

describe('control mode (ExecOptions.control, client controlMode)', () => {
  let server: RunningServer;
  let client: SdkClient;
  beforeAll(async () => void ({ server, client } = await sdkAgainstSpritzer()));
  afterAll(() => server.close());

  it('runs commands over /control with output, exit code, stdin, dir and env', async () => {
    expect(await client.run('box', ['sh', '-c', 'echo out; echo err >&2; exit 3'], { control: true })).toEqual({ stdout: 'out\n', stderr: 'err\n', exitCode: 3 });
    expect(await client.run('box', ['cat'], { control: true, stdin: 'piped\n' })).toEqual({ stdout: 'piped\n', stderr: '', exitCode: 0 });
    expect((await client.run('box', ['sh', '-c', 'pwd; echo $A'], { control: true, dir: '/tmp', env: { A: 'b' } })).stdout).toBe('/tmp\nb\n');
    expect((await client.run('box', ['stty', 'size'], { control: true, tty: true, rows: 30, cols: 90 })).stdout).toBe('30 90\r\n');
  });

  it('goes through the control socket: the request log shows /control and no /exec', async () => {
    const viaControl = createSpritesClient({ baseUrl: server.url, token: TOKEN, controlMode: true });
    expect((await viaControl.run('box', ['echo', 'logged'])).stdout).toBe('logged\n');
    const log = await (await fetch(`${server.url}/_spritzer/requests`, { headers: { Authorization: `Bearer ${TOKEN}` } })).json();
    const ws = (log.requests as Array<{ kind: string; path: string; status: number }>).filter((r) => r.kind === 'ws');
    expect(ws[0].path).toMatch(/^\/v1\/sprites\/box\/control\?op=exec&cmd=echo&cmd=logged/);
    expect(ws[0].status).toBe(101);
  });

  it('fails with ExecProtocolError op_error when the control socket refuses the command', async () => {
    const err = await client.run('box', ['true'], { control: true, dir: '/no/such/dir' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExecProtocolError);
    expect(err).toMatchObject({ code: 'op_error', message: 'chdir /no/such/dir: no such file or directory' });
  });
});
