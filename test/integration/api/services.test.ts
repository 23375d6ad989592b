/**
 * Services over HTTP (docs/wire-reference.md §9): the NDJSON streams of put/start/stop/restart/logs, list and get,
 * signal, delete, `needs` order and cycles, the one-HTTP-port rule, restart with backoff and the log file in
 * the sprite. Time-dependent behaviour runs on a FakeClock; one test streams for a real `duration=1s`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { api, startTestServer, ENGINES, SANDBOX_RUN, TOKEN } from '../../support/server.ts';
import { DEFAULT_LIMITS } from '../../../src/server/core/limits.ts';
import type { RunningServer } from '../../../src/server/server.ts';
import { FakeClock } from '../../../src/server/core/clock.ts';

type Call = ReturnType<typeof api>;

/** The lines of an NDJSON body. */
function ndjson(text: string): any[] {
  return text.split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

/** Polls `probe` until it returns a truthy value (state changes that follow an engine's async exit). */
async function until<T>(probe: () => Promise<T | undefined | false>, what: string): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const v = await probe();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Checks every NDJSON line has an integer `timestamp` and the stream ends with `complete` + `log_files`. */
function expectServiceStream(lines: any[], service: string): void {
  for (const l of lines) expect(Number.isInteger(l.timestamp)).toBe(true);
  const path = `/.sprite/logs/services/${service}.log`;
  expect(lines.at(-1)).toEqual({
    type: 'complete',
    timestamp: expect.any(Number),
    log_files: { combined: path, stdout: path, stderr: path },
  });
  expect(lines.filter((l) => l.type === 'complete')).toHaveLength(1);
}

const sh = (script: string) => ({ cmd: 'sh', args: ['-c', script] });

describe.each(ENGINES)('putService (%s engine)', (engine) => {
  let srv: RunningServer;
  let call: Call;
  beforeAll(async () => {
    srv = await startTestServer(engine);
    call = api(srv.url);
    await call('POST', '/v1/sprites', { name: 'box' });
  });
  afterAll(() => srv.close());

  it('duration=1s streams started, the output and the exit, then complete with log_files', async () => {
    const r = await call('PUT', '/v1/sprites/box/services/hello?duration=1s', { cmd: 'echo', args: ['hi'] });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('application/x-ndjson');
    const lines = ndjson(r.text);
    expect(lines[0]).toMatchObject({ type: 'started' });
    expect(lines).toContainEqual({ type: 'stdout', timestamp: expect.any(Number), data: 'hi' });
    expect(lines).toContainEqual({ type: 'exit', timestamp: expect.any(Number), exit_code: 0 });
    expect(lines.findIndex((l) => l.type === 'stdout')).toBeLessThan(lines.findIndex((l) => l.type === 'exit'));
    expectServiceStream(lines, 'hello');
  });

  it('writes the output to /.sprite/logs/services/<name>.log, readable through the fs API', async () => {
    const log = await call('GET', '/v1/sprites/box/fs/read?path=/.sprite/logs/services/hello.log');
    expect(log.status).toBe(200);
    expect(log.text.split('\n')).toContain('hi');
  });

  it('lists the service as a bare array with its definition', async () => {
    const r = await call('GET', '/v1/sprites/box/services');
    expect(r.status).toBe(200);
    expect(Array.isArray(r.json)).toBe(true);
    expect(r.json).toContainEqual(
      expect.objectContaining({ name: 'hello', cmd: 'echo', args: ['hi'], needs: [], http_port: null, state: expect.objectContaining({ name: 'hello' }) }),
    );
  });
});

describe.skipIf(SANDBOX_RUN)('services on the shell engine with a fake clock', () => {
  let srv: RunningServer;
  let call: Call;
  const clock = new FakeClock();
  const svc = (name: string) => call('GET', `/v1/sprites/box/services/${name}`);
  const put = (name: string, body: object, duration = '0') => call('PUT', `/v1/sprites/box/services/${name}?duration=${duration}`, body);
  /** Waits until the service's state matches `pred`, returns the service. */
  const waitFor = (name: string, pred: (s: any) => boolean, what: string) =>
    until(async () => {
      const r = await svc(name);
      return r.status === 200 && pred(r.json) ? r.json : undefined;
    }, `${name}: ${what}`);

  beforeAll(async () => {
    srv = await startTestServer('shell', { clock });
    call = api(srv.url);
    await call('POST', '/v1/sprites', { name: 'box' });
  });
  afterAll(() => srv.close());

  describe('putService', () => {
    it('duration=0 answers at once with started then complete', async () => {
      const r = await put('web', { ...sh('sleep 1000'), httpPort: 8080 });
      expect(r.status).toBe(200);
      const lines = ndjson(r.text);
      expect(lines.map((l) => l.type)).toEqual(['started', 'complete']);
      expect(lines[0].timestamp).toBe(clock.now());
      expectServiceStream(lines, 'web');
    });

    it('accepts httpPort (JS) and http_port, and refuses a second HTTP port with 409', async () => {
      expect((await svc('web')).json.http_port).toBe(8080);
      const second = await put('api', { ...sh('sleep 1000'), http_port: 3000 });
      expect(second.status).toBe(409);
      expect(second.text).toContain('HTTP port');
      expect((await svc('api')).status).toBe(404);
      // the service that owns the port may change it, with the snake_case spelling
      const moved = await put('web', { ...sh('sleep 1000'), http_port: 9090 });
      expect(moved.status).toBe(200);
      expect((await svc('web')).json.http_port).toBe(9090);
    });

    it('rejects a definition without cmd, an unknown need and a needs cycle with 400, changing nothing', async () => {
      expect((await put('bad', { args: ['x'] })).status).toBe(400);
      expect((await put('bad', { ...sh('true'), needs: ['nope'] })).status).toBe(400);
      expect((await svc('bad')).status).toBe(404);
      expect((await put('db', sh('sleep 1000'))).status).toBe(200);
      expect((await put('app', { ...sh('sleep 1000'), needs: ['db'] })).status).toBe(200);
      const cycle = await put('db', { ...sh('sleep 1000'), needs: ['app'] });
      expect(cycle.status).toBe(400);
      expect(cycle.text).toContain('cycle');
      expect((await put('self', { ...sh('true'), needs: ['self'] })).status).toBe(400);
      expect((await svc('db')).json.needs).toEqual([]);
    });

    it('rejects an env name that is empty or holds "=" with 400, as an exec does, changing nothing', async () => {
      for (const env of [{ 'A=B': 'c' }, { '': 'x' }]) {
        const r = await put('envy', { ...sh('true'), env });
        expect(r.status, JSON.stringify(env)).toBe(400);
        expect(r.text).toMatch(/env/);
      }
      expect((await svc('envy')).status).toBe(404);
    });

    it('starts what a service needs first', async () => {
      expect((await call('POST', '/v1/sprites/box/services/app/stop')).status).toBe(200);
      expect((await call('POST', '/v1/sprites/box/services/db/stop')).status).toBe(200);
      expect((await svc('db')).json.state.status).toBe('stopped');
      const r = await call('POST', '/v1/sprites/box/services/app/start?duration=0');
      expect(r.status).toBe(200);
      const [db, app] = [(await svc('db')).json, (await svc('app')).json];
      expect(db.state.status).toBe('running');
      expect(app.state.status).toBe('running');
      expect(db.state.pid).toBeLessThan(app.state.pid);
    });
  });

  describe('getService', () => {
    it('answers the state fields: status, pid, started_at (≤ 6 fractional digits), restart_count', async () => {
      const r = await svc('web');
      expect(r.status).toBe(200);
      expect(r.json).toMatchObject({ name: 'web', cmd: 'sh', args: ['-c', 'sleep 1000'], needs: [] });
      expect(r.json.state).toMatchObject({ name: 'web', status: 'running', pid: expect.any(Number), restart_count: 0 });
      expect(r.json.state.started_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,6})?Z$/);
      expect(Date.parse(r.json.state.started_at)).toBe(clock.now());
      expect((await svc('missing')).status).toBe(404);
    });
  });

  describe('listServices', () => {
    it('answers a bare array ordered by name', async () => {
      const r = await call('GET', '/v1/sprites/box/services');
      expect(r.status).toBe(200);
      expect(r.json.map((s: { name: string }) => s.name)).toEqual(['app', 'db', 'web']);
    });
  });

  describe('stopService', () => {
    it('streams stopping, stopped and complete; the stop is sticky until start', async () => {
      const r = await call('POST', '/v1/sprites/box/services/web/stop?timeout=5s');
      expect(r.status).toBe(200);
      const lines = ndjson(r.text);
      expect(lines.map((l) => l.type)).toEqual(['stopping', 'stopped', 'complete']);
      expect(lines[1].exit_code).toBe(143);
      expectServiceStream(lines, 'web');
      clock.advance(120_000);
      const after = (await svc('web')).json.state;
      expect(after.status).toBe('stopped');
      expect(after.pid).toBeUndefined();
      expect(after.restart_count).toBe(0);
    });

    it('answers 409 when the service is not running', async () => {
      expect((await call('POST', '/v1/sprites/box/services/web/stop')).status).toBe(409);
      expect((await call('POST', '/v1/sprites/box/services/missing/stop')).status).toBe(404);
    });
  });

  describe('startService', () => {
    it('streams started and complete and runs the service again', async () => {
      const r = await call('POST', '/v1/sprites/box/services/web/start?duration=0');
      expect(r.status).toBe(200);
      const lines = ndjson(r.text);
      expect(lines.map((l) => l.type)).toEqual(['started', 'complete']);
      expectServiceStream(lines, 'web');
      expect((await svc('web')).json.state.status).toBe('running');
    });
  });

  describe('restartService', () => {
    it('streams the stop events, then the start events, with a new pid', async () => {
      const before = (await svc('web')).json.state.pid;
      const r = await call('POST', '/v1/sprites/box/services/web/restart?duration=0');
      expect(r.status).toBe(200);
      const lines = ndjson(r.text);
      expect(lines.map((l) => l.type)).toEqual(['stopping', 'stopped', 'started', 'complete']);
      const after = (await svc('web')).json.state;
      expect(after.status).toBe('running');
      expect(after.pid).toBeGreaterThan(before);
    });
  });

  describe('signalService', () => {
    it('answers 204 and delivers the signal (HUP ends sleep, which counts as a crash and is restarted)', async () => {
      const r = await call('POST', '/v1/sprites/box/services/signal', { name: 'web', signal: 'HUP' });
      expect(r.status).toBe(204);
      expect(r.text).toBe('');
      const crashed = await waitFor('web', (s) => s.state.status === 'starting', 'restart pending');
      expect(crashed.state.error).toBe('exited with code 129');
      expect(Date.parse(crashed.state.next_restart_at)).toBe(clock.now() + 1000);
      clock.advance(1000);
      const back = await waitFor('web', (s) => s.state.status === 'running', 'running again');
      expect(back.state.restart_count).toBe(1);
    });

    it('answers 400 for an unknown signal and 409 for a service that is not running', async () => {
      expect((await call('POST', '/v1/sprites/box/services/signal', { name: 'web', signal: 'BOGUS' })).status).toBe(400);
      expect((await call('POST', '/v1/sprites/box/services/web/stop')).status).toBe(200);
      expect((await call('POST', '/v1/sprites/box/services/signal', { name: 'web', signal: 'SIGTERM' })).status).toBe(409);
      expect((await call('POST', '/v1/sprites/box/services/signal', { name: 'missing', signal: 'TERM' })).status).toBe(404);
    });
  });

  describe('deleteService', () => {
    it('answers 409 while the service runs or another service needs it, then 204', async () => {
      expect((await call('DELETE', '/v1/sprites/box/services/app')).status).toBe(409);
      await call('POST', '/v1/sprites/box/services/app/stop');
      await call('POST', '/v1/sprites/box/services/db/stop');
      const needed = await call('DELETE', '/v1/sprites/box/services/db');
      expect(needed.status).toBe(409);
      expect(needed.text).toContain('app');
      const gone = await call('DELETE', '/v1/sprites/box/services/app');
      expect(gone.status).toBe(204);
      expect(gone.text).toBe('');
      expect((await call('DELETE', '/v1/sprites/box/services/db')).status).toBe(204);
      expect((await svc('app')).status).toBe(404);
      expect((await call('DELETE', '/v1/sprites/box/services/app')).status).toBe(404);
    });
  });

  describe('restart with backoff', () => {
    it('a command that exits is restarted after 1 s, then 2 s; restart_count grows', async () => {
      const r = await put('flaky', sh('echo hi; exit 1'));
      expect(r.status).toBe(200);
      let s = await waitFor('flaky', (x) => x.state.status === 'starting', 'first exit');
      expect(s.state).toMatchObject({ restart_count: 0, error: 'exited with code 1' });
      expect(Date.parse(s.state.next_restart_at)).toBe(clock.now() + 1000);

      clock.advance(1000);
      s = await waitFor('flaky', (x) => x.state.restart_count === 1 && x.state.status === 'starting', 'second exit');
      expect(Date.parse(s.state.next_restart_at)).toBe(clock.now() + 2000);

      clock.advance(1000);
      expect((await svc('flaky')).json.state.restart_count).toBe(1);
      clock.advance(1000);
      s = await waitFor('flaky', (x) => x.state.restart_count === 2 && x.state.status === 'starting', 'third exit');
      expect(Date.parse(s.state.next_restart_at)).toBe(clock.now() + 4000);

      const log = await call('GET', '/v1/sprites/box/fs/read?path=/.sprite/logs/services/flaky.log');
      expect(log.text).toBe('hi\nhi\nhi\n');
    });

    it('stop cancels a pending restart', async () => {
      const r = await call('POST', '/v1/sprites/box/services/flaky/stop');
      expect(r.status).toBe(200);
      clock.advance(60_000);
      const s = (await svc('flaky')).json.state;
      expect(s.status).toBe('stopped');
      expect(s.restart_count).toBe(2);
      expect(s.next_restart_at).toBeUndefined();
    });
  });

  describe('putService on a running service', () => {
    it('stops the old command, then starts the new definition', async () => {
      expect((await put('swap', sh('sleep 1000'))).status).toBe(200);
      const old = (await svc('swap')).json.state.pid;
      const r = await put('swap', sh('sleep 2000'));
      expect(r.status).toBe(200);
      expect(ndjson(r.text).map((l) => l.type)).toEqual(['stopping', 'stopped', 'started', 'complete']);
      const now = (await svc('swap')).json;
      expect(now.args).toEqual(['-c', 'sleep 2000']);
      expect(now.state.status).toBe('running');
      expect(now.state.pid).toBeGreaterThan(old);
    });
  });

  describe('restoreCheckpoint and services', () => {
    it('a running service comes back with a new command after a restore; a stopped one stays stopped', async () => {
      expect((await call('POST', '/v1/sprites/box/checkpoint', {})).status).toBe(200);
      const before = (await svc('swap')).json.state.pid;
      expect((await svc('web')).json.state.status).toBe('stopped');
      expect((await call('POST', '/v1/sprites/box/checkpoints/v1/restore')).status).toBe(200);
      const back = await waitFor('swap', (s) => s.state.status === 'running' && s.state.pid > before, 'swap restarted');
      expect(back.state.status).toBe('running');
      expect((await svc('web')).json.state.status).toBe('stopped');
    });
  });

  describe('getServiceLogs', () => {
    it('replays the log as stdout/stderr lines; lines=N keeps the last N; ends with complete', async () => {
      expect((await put('talk', sh('echo one; echo two; echo oops 1>&2; exit 3'))).status).toBe(200);
      await waitFor('talk', (x) => x.state.status === 'starting', 'exit');
      await call('POST', '/v1/sprites/box/services/talk/stop');
      const all = await call('GET', '/v1/sprites/box/services/talk/logs');
      expect(all.status).toBe(200);
      const lines = ndjson(all.text);
      expect(lines.slice(0, -1).map((l) => [l.type, l.data])).toEqual([
        ['stdout', 'one'],
        ['stdout', 'two'],
        ['stderr', 'oops'],
      ]);
      expectServiceStream(lines, 'talk');
      const last = ndjson((await call('GET', '/v1/sprites/box/services/talk/logs?lines=1')).text);
      expect(last.map((l) => l.type)).toEqual(['stderr', 'complete']);
      expect((await call('GET', '/v1/sprites/box/services/missing/logs')).status).toBe(404);
    });
  });
});

describe.skipIf(SANDBOX_RUN)('a service stream to a client that reads too slowly', () => {
  const BOUND = 64 * 1024;
  let srv: RunningServer;
  beforeAll(async () => {
    srv = await startTestServer('shell', { limits: { ...DEFAULT_LIMITS, streamBufferedBytes: BOUND } });
    await api(srv.url)('POST', '/v1/sprites', { name: 'flood' });
  });
  afterAll(() => srv.close());

  it('ends with an error line and complete once more than the bound waits, long before its duration; the service goes on', async () => {
    const body = JSON.stringify(sh('yes flood-flood-flood-flood-flood-flood-flood-flood'));
    const chunks: Buffer[] = [];
    await new Promise<void>((resolve, reject) => {
      const req = request(`${srv.url}/v1/sprites/flood/services/yes?duration=600s`, { method: 'PUT', headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' } }, (res) => {
        // Reads nothing for a while: the socket's buffers fill, then spritzer's.
        res.pause();
        setTimeout(() => res.resume(), 3000);
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', resolve);
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });
    const lines = ndjson(Buffer.concat(chunks).toString('utf8'));
    expect(lines.at(-2)).toMatchObject({ type: 'error', data: expect.stringMatching(/^the client reads too slowly: more than 65536 bytes of events waiting/) });
    expectServiceStream(lines, 'yes');
    const svc = JSON.parse((await api(srv.url)('GET', '/v1/sprites/flood/services/yes')).text);
    expect(svc.state.status).not.toMatch(/stopped|failed|exited/);
  }, 60_000);
});
