/**
 * Sprite networking on the sandbox engine: the seed's container-mode acceptance story end to end. A sprite runs
 * `uname -a`, a multi-line script and a stdin pipe; a disconnected exec is killed; inside the sprite
 * `sprite-env services create web --cmd python3 --args -m,http.server,8080 --http-port 8080` exits 0 and its exec
 * ends; `GET /s/<name>/hello.txt` and the host-routed URL answer 200 `hello from the sprite\n`, also 3 s later;
 * `url_settings.auth` (sprite → 401 without the token, public → open); a WebSocket through the URL; `/proxy` to the
 * service; 502 with nothing listening; deleting the sprite leaves no process or mount of it on the host.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import { WebSocket } from 'ws';
import { SpritesClient } from '@fly/sprites';
import { api, execQuery, wsExec, TOKEN, startTestServer } from '../support/server.ts';
import type { RunningServer } from '../../src/server/server.ts';
import type { SandboxMachine } from '../../src/server/machines/sandbox/sandbox-machine.ts';
import { announceSkip, mountsUnder } from './support.ts';

const skip = announceSkip('sandbox networking');
let srv: RunningServer;
let call: ReturnType<typeof api>;
let port: number;

beforeAll(async () => {
  if (skip) return;
  srv = await startTestServer('sandbox', { token: TOKEN });
  call = api(srv.url);
  port = Number(new URL(srv.url).port);
  for (const name of ['web1', 'quiet']) expect((await call('POST', '/v1/sprites', { name })).status).toBe(201);
}, 60_000);
afterAll(async () => {
  await srv?.close();
});

const sh = (script: string) => ['bash', '-c', script];

/** A GET to spritzer with a chosen Host header (what a browser sends for `http://<name>.localhost:<port>/`). */
function getWithHost(path: string, host: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string; type: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, headers: { Host: host, ...headers } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), type: String(res.headers['content-type'] ?? '') }));
      })
      .on('error', reject);
  });
}

const auth = { Authorization: `Bearer ${TOKEN}` };

/** A tiny WebSocket echo server (no library: the sprite has only node), upper-casing each text frame. */
const WS_ECHO = `
const http = require('http'), crypto = require('crypto');
const s = http.createServer((q, r) => r.end('plain\\n'));
s.on('upgrade', (req, sock) => {
  const accept = crypto.createHash('sha1').update(req.headers['sec-websocket-key'] + '258EAFA5-E914-47DA-95CA-C5AB0DC85B11').digest('base64');
  sock.write('HTTP/1.1 101 Switching Protocols\\r\\nUpgrade: websocket\\r\\nConnection: Upgrade\\r\\nSec-WebSocket-Accept: ' + accept + '\\r\\n\\r\\n');
  sock.on('data', (b) => {
    const len = b[1] & 127, mask = b.subarray(2, 6), data = Buffer.from(b.subarray(6, 6 + len));
    for (let i = 0; i < data.length; i++) data[i] ^= mask[i % 4];
    const out = Buffer.from(('echo:' + data.toString()).toUpperCase());
    sock.write(Buffer.concat([Buffer.from([0x81, out.length]), out]));
  });
});
s.listen(8080);
`;

describe.skipIf(skip)('sandbox networking: the sprite URL, sprite-env and the proxy', () => {
  it('the seed story: uname -a, a multi-line script, a stdin pipe, a disconnected exec killed', async () => {
    const uname = await wsExec(srv.url, `/v1/sprites/web1/exec?${execQuery(['uname', '-a'])}`);
    expect(uname.stdout).toMatch(/^Linux web1 /);
    const script = await wsExec(srv.url, `/v1/sprites/web1/exec?${execQuery(sh('x=6\ny=7\necho $((x*y))\necho done >&2'))}`);
    expect([script.stdout, script.stderr, script.exitCode]).toEqual(['42\n', 'done\n', 0]);
    const piped = await wsExec(srv.url, `/v1/sprites/web1/exec?${execQuery(['tr', 'a-z', 'A-Z'], { stdin: true })}`, (ws) => {
      ws.send(Buffer.concat([Buffer.from([0]), Buffer.from('piped\n')]));
      ws.send(Buffer.from([4]));
    });
    expect(piped.stdout).toBe('PIPED\n');
    const dropped = new WebSocket(`${srv.url.replace('http', 'ws')}/v1/sprites/web1/exec?${execQuery(['sleep', '777'])}`, { headers: auth });
    await new Promise((r) => dropped.once('message', r));
    dropped.terminate();
    await new Promise((r) => setTimeout(r, 1000));
    const ps = await wsExec(srv.url, `/v1/sprites/web1/exec?${execQuery(['ps', 'ax', '-o', 'args'])}`);
    expect(ps.stdout).not.toContain('sleep 777');
  });

  it('sprite-env services create inside exits 0, its exec ends, and both URL forms answer, also 3 s later', async () => {
    const created = await wsExec(
      srv.url,
      `/v1/sprites/web1/exec?${execQuery(sh("echo 'hello from the sprite' > /home/sprite/hello.txt && sprite-env services create web --cmd python3 --args -m,http.server,8080 --http-port 8080 --duration 1s"))}`,
    );
    expect(created.stderr).toBe('');
    expect(created.exitCode).toBe(0);
    expect(created.stdout).toContain('"type":"started"');
    expect(created.stdout).toContain('"type":"complete"');
    // The service outlives the exec that created it.
    await new Promise((r) => setTimeout(r, 3000));
    const pathRouted = await fetch(`${srv.url}/s/web1/hello.txt`, { headers: auth });
    expect(pathRouted.status).toBe(200);
    expect(await pathRouted.text()).toBe('hello from the sprite\n');
    const hostRouted = await getWithHost('/hello.txt', `web1.localhost:${port}`, auth);
    expect([hostRouted.status, hostRouted.text]).toEqual([200, 'hello from the sprite\n']);
    const svc = await call('GET', '/v1/sprites/web1/services/web');
    expect(svc.json.state.status).toBe('running');
    expect(svc.json.http_port).toBe(8080);
  }, 30_000);

  it('url_settings.auth: sprite needs the bearer token (401 envelope), public is open', async () => {
    const anon = await fetch(`${srv.url}/s/web1/hello.txt`);
    expect(anon.status).toBe(401);
    expect(await anon.json()).toMatchObject({ error: 'unauthorized' });
    const wrongHost = await getWithHost('/hello.txt', `web1.localhost:${port}`);
    expect(wrongHost.status).toBe(401);
    expect((await call('PUT', '/v1/sprites/web1', { url_settings: { auth: 'public' } })).status).toBe(200);
    const open = await getWithHost('/hello.txt', `web1.localhost:${port}`);
    expect([open.status, open.text]).toEqual([200, 'hello from the sprite\n']);
    expect((await call('PUT', '/v1/sprites/web1', { url_settings: { auth: 'sprite' } })).status).toBe(200);
    expect((await fetch(`${srv.url}/s/web1/hello.txt`)).status).toBe(401);
  });

  it('sprite-env inside lists the service, reads its logs and lists checkpoints; /.sprite files exist', async () => {
    const rec = await wsExec(
      srv.url,
      `/v1/sprites/web1/exec?${execQuery(sh('sprite-env services list && sprite-env checkpoints list && cat /.sprite/version.txt && test -d /.sprite/logs/services && echo logs-dir'))}`,
    );
    expect(rec.exitCode).toBe(0);
    const listed = JSON.parse(rec.stdout.slice(0, rec.stdout.indexOf('\n]') + 2));
    expect(listed.map((s: { name: string }) => s.name)).toEqual(['web']);
    expect(rec.stdout).toMatch(/v0\.0\.1-rc46\nlogs-dir\n$/);
    const log = await wsExec(srv.url, `/v1/sprites/web1/exec?${execQuery(['cat', '/.sprite/logs/services/web.log'])}`);
    expect(log.stdout).toContain('GET /hello.txt');
    const missing = await wsExec(srv.url, `/v1/sprites/web1/exec?${execQuery(['sprite-env', 'services', 'get', 'nope'])}`);
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain('HTTP 404');
  });

  it('a request to the URL starts a stopped http_port service on demand', async () => {
    const stopped = await wsExec(srv.url, `/v1/sprites/web1/exec?${execQuery(['sprite-env', 'services', 'stop', 'web'])}`);
    expect(stopped.exitCode).toBe(0);
    expect(stopped.stdout).toContain('"type":"stopped"');
    expect((await call('GET', '/v1/sprites/web1/services/web')).json.state.status).toBe('stopped');
    const res = await fetch(`${srv.url}/s/web1/hello.txt`, { headers: auth });
    expect([res.status, await res.text()]).toEqual([200, 'hello from the sprite\n']);
    expect((await call('GET', '/v1/sprites/web1/services/web')).json.state.status).toBe('running');
  }, 20_000);

  it('/proxy reaches the service inside the sprite', async () => {
    const ws = new WebSocket(`${srv.url.replace('http', 'ws')}/v1/sprites/web1/proxy`, { headers: auth });
    await new Promise((r) => ws.once('open', r));
    ws.send(JSON.stringify({ host: 'localhost', port: 8080 }));
    const connected = await new Promise<string>((r) => ws.once('message', (d) => r(d.toString())));
    expect(JSON.parse(connected)).toEqual({ status: 'connected', target: 'localhost:8080' });
    const chunks: Buffer[] = [];
    const closed = new Promise((r) => ws.once('close', r));
    ws.on('message', (d, bin) => bin && chunks.push(d as Buffer));
    ws.send(Buffer.from('GET /hello.txt HTTP/1.0\r\n\r\n'), { binary: true });
    await closed;
    const text = Buffer.concat(chunks).toString('utf8');
    expect(text).toMatch(/^HTTP\/1\.0 200 /);
    expect(text.endsWith('\r\n\r\nhello from the sprite\n')).toBe(true);
  });

  it('nothing listening answers 502 JSON; a WebSocket goes through the URL once a server listens', async () => {
    const none = await fetch(`${srv.url}/s/quiet/`, { headers: auth });
    expect(none.status).toBe(502);
    expect(await none.json()).toMatchObject({ error: 'bad_gateway', message: expect.stringContaining('port 8080') });
    await call('PUT', '/v1/sprites/quiet/fs/write?path=/home/sprite/ws.js', WS_ECHO);
    const put = await call('PUT', '/v1/sprites/quiet/services/ws?duration=0', { cmd: '/.sprite/bin/node', args: ['/home/sprite/ws.js'], http_port: 8080 });
    expect(put.status).toBe(200);
    let plain = 0;
    for (let i = 0; i < 50 && plain !== 200; i++) {
      await new Promise((r) => setTimeout(r, 100));
      plain = (await fetch(`${srv.url}/s/quiet/`, { headers: auth })).status;
    }
    expect(plain).toBe(200);
    const ws = new WebSocket(`${srv.url.replace('http', 'ws')}/s/quiet/chat`, { headers: auth });
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    ws.send('hi');
    const reply = await new Promise<string>((r) => ws.once('message', (d) => r(d.toString())));
    expect(reply).toBe('ECHO:HI');
    ws.terminate();
    const anon = new WebSocket(`${srv.url.replace('http', 'ws')}/s/quiet/chat`);
    const status = await new Promise<number>((r) => anon.once('unexpected-response', (_q, res) => r(res.statusCode ?? 0)));
    expect(status).toBe(401);
  }, 30_000);

  it('the official @fly/sprites SDK: watchPorts sees a real listener open and close; proxyPort reaches the service', async () => {
    const sprite = new SpritesClient(TOKEN, { baseURL: srv.url }).sprite('quiet');
    const watcher = await sprite.watchPorts();
    const first = (await watcher.next()) as { type: string; ports: Array<{ port: number }> };
    expect(first.type).toBe('port_list');
    expect(first.ports.map((p) => p.port)).toContain(8080);
    const server = sprite.spawn('python3', ['-m', 'http.server', '8123', '--bind', '127.0.0.1']);
    type PortEvent = { type: string; port: number; address: string; pid: number };
    let opened: PortEvent | null = null;
    while (!opened) {
      const ev = (await watcher.next()) as PortEvent | null;
      if (ev?.type === 'port_opened' && ev.port === 8123) opened = ev;
    }
    expect(opened.address).toBe('127.0.0.1');
    expect(opened.pid).toBeGreaterThan(0);
    server.kill('SIGTERM');
    let closed = false;
    while (!closed) {
      const ev = (await watcher.next()) as { type: string; port: number } | null;
      closed = ev?.type === 'port_closed' && ev.port === 8123;
    }
    watcher.close();

    const session = await sprite.proxyPort(0, 8080);
    const local = Number(session.localAddr()!.split(':').at(-1));
    const res = await new Promise<string>((resolve, reject) => {
      http.get({ host: 'localhost', port: local, path: '/' }, (r) => {
        let body = '';
        r.on('data', (c: Buffer) => (body += c.toString()));
        r.on('end', () => resolve(body));
      }).on('error', reject);
    });
    expect(res).toBe('plain\n');
    session.close();
  }, 30_000);

  it('services come back, and the URL answers again, after a restore and after the sprite crashed', async () => {
    const untilPlain = async () => {
      let status = 0;
      for (let i = 0; i < 100 && status !== 200; i++) {
        await new Promise((r) => setTimeout(r, 100));
        status = (await fetch(`${srv.url}/s/quiet/`, { headers: auth }).catch(() => ({ status: 0 }))).status;
      }
      return status;
    };
    const created = await call('POST', '/v1/sprites/quiet/checkpoint', { comment: 'with ws' });
    const id = /Checkpoint (v\d+) created/.exec(created.text)![1];
    expect((await call('POST', `/v1/sprites/quiet/checkpoints/${id}/restore`)).text).toContain('"type":"complete"');
    expect(await untilPlain()).toBe(200);
    const machine = srv.spritzer.ctx.model.get('quiet').machine as SandboxMachine;
    const before = machine.initPid;
    machine.killNow();
    expect(await untilPlain()).toBe(200);
    expect(machine.initPid).not.toBe(before);
    expect((await call('GET', '/v1/sprites/quiet/services/ws')).json.state.status).toBe('running');
    const inside = await wsExec(srv.url, `/v1/sprites/quiet/exec?${execQuery(['sprite-env', 'services', 'get', 'ws'])}`);
    expect([inside.exitCode, JSON.parse(inside.stdout).state.status]).toEqual([0, 'running']);
  }, 40_000);

  it('services are real processes: "ready" streams and lands in the log before the exit; a crash restarts; stop runs the trap', async () => {
    const ready = await call('PUT', '/v1/sprites/quiet/services/once?duration=3s', { cmd: 'sh', args: ['-c', 'echo ready; sleep 0.5; exit 0'] });
    const lines = ready.text.trim().split('\n').map((l: string) => JSON.parse(l));
    const types = lines.map((l: { type: string }) => l.type);
    expect(types.indexOf('stdout')).toBeGreaterThan(types.indexOf('started'));
    expect(types.indexOf('stdout')).toBeLessThan(types.indexOf('exit'));
    expect(lines.find((l: { type: string }) => l.type === 'stdout').data).toContain('ready');
    expect((await call('GET', '/v1/sprites/quiet/fs/read?path=/.sprite/logs/services/once.log')).text).toContain('ready');

    await call('PUT', '/v1/sprites/quiet/services/crash?duration=0', { cmd: 'sh', args: ['-c', 'echo up; exit 3'] });
    let restarts = 0;
    for (let i = 0; i < 40 && restarts < 1; i++) {
      await new Promise((r) => setTimeout(r, 100));
      restarts = (await call('GET', '/v1/sprites/quiet/services/crash')).json.state.restart_count ?? 0;
    }
    expect(restarts).toBeGreaterThanOrEqual(1);
    await call('POST', '/v1/sprites/quiet/services/crash/stop');

    await call('PUT', '/v1/sprites/quiet/services/trap?duration=0', {
      cmd: 'bash',
      args: ['-c', 'trap "echo trapped; exit 0" TERM; echo armed; while true; do sleep 0.1; done'],
    });
    let log = '';
    for (let i = 0; i < 40 && !log.includes('armed'); i++) {
      await new Promise((r) => setTimeout(r, 100));
      log = (await call('GET', '/v1/sprites/quiet/fs/read?path=/.sprite/logs/services/trap.log')).text;
    }
    const stop = await call('POST', '/v1/sprites/quiet/services/trap/stop?timeout=5s');
    expect(stop.text).toContain('"type":"stopped"');
    expect(stop.text).toContain('"exit_code":0');
    expect(stop.text).toContain('trapped');
    // The log is appended through the agent after the event: it has the trap's line a moment later.
    for (let i = 0; i < 20 && !log.includes('trapped'); i++) {
      await new Promise((r) => setTimeout(r, 50));
      log = (await call('GET', '/v1/sprites/quiet/fs/read?path=/.sprite/logs/services/trap.log')).text;
    }
    expect(log).toContain('trapped');
  }, 30_000);

  it('HTTP exec and WebSocket exec stream: the first line arrives while the command still waits for the test', async () => {
    const script = 'echo first; while [ ! -e /tmp/go-$0 ]; do sleep 0.05; done; echo second';
    const q = new URLSearchParams();
    for (const a of ['sh', '-c', script, 'http']) q.append('cmd', a);
    const res = await fetch(`${srv.url}/v1/sprites/quiet/exec?${q}`, { method: 'POST', headers: auth });
    const reader = res.body!.getReader();
    let seen = Buffer.alloc(0);
    while (!seen.includes('first\n')) seen = Buffer.concat([seen, Buffer.from((await reader.read()).value!)]);
    expect(seen.includes('second')).toBe(false);
    await call('PUT', '/v1/sprites/quiet/fs/write?path=/tmp/go-http', 'x');
    for (let r = await reader.read(); !r.done; r = await reader.read()) seen = Buffer.concat([seen, Buffer.from(r.value)]);
    expect(seen.includes('second\n')).toBe(true);

    const rec = await wsExec(srv.url, `/v1/sprites/quiet/exec?${execQuery(['sh', '-c', script, 'ws'])}`, (ws) => {
      ws.on('message', (d: Buffer, bin: boolean) => {
        if (bin && d[0] === 1 && d.subarray(1).toString().includes('first')) void call('PUT', '/v1/sprites/quiet/fs/write?path=/tmp/go-ws', 'x');
      });
    });
    expect(rec.stdout).toBe('first\nsecond\n');
  });

  it('deleting the sprite leaves no process or mount of it on the host', async () => {
    const machine = srv.spritzer.ctx.model.get('web1').machine as SandboxMachine;
    const { pids } = await machine.processes();
    expect(pids.length).toBeGreaterThan(1);
    const { spriteDir } = machine.paths;
    expect((await call('DELETE', '/v1/sprites/web1')).status).toBe(204);
    const alive = pids.filter((pid) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    });
    expect(alive).toEqual([]);
    expect(await mountsUnder(spriteDir)).toEqual([]);
    expect((await fetch(`${srv.url}/s/web1/hello.txt`, { headers: auth })).status).toBe(404);
  });
});
