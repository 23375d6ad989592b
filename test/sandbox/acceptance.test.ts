/**
 * The sandbox engine end to end, through spritzer's own HTTP and WebSocket API: what a user does first with a real
 * Linux sprite (`uname`, a multi-line script with env and dir, stdin through `sha256sum`, a dropped `sleep` gone from
 * `ps`, checkpoint/restore of files written by real commands) and the small inputs from field reports (bytes, devices,
 * trap + kill API, streamed output before a signal, background jobs, big output, dangling links, busy loops).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { WebSocket } from 'ws';
import { api, execQuery, wsExec, TOKEN, type ExecRecord, startTestServer } from '../support/server.ts';
import type { RunningServer } from '../../src/server/server.ts';
import { announceSkip } from './support.ts';

const skip = announceSkip('sandbox acceptance');
let srv: RunningServer;
let call: ReturnType<typeof api>;

beforeAll(async () => {
  if (skip) return;
  srv = await startTestServer('sandbox', { token: TOKEN });
  call = api(srv.url);
  expect((await call('POST', '/v1/sprites', { name: 'acme' })).status).toBe(201);
});
afterAll(async () => {
  await srv?.close();
});

/** The stdout bytes of a non-TTY WebSocket exec record (frames `[1]…`). */
function stdoutBytes(rec: ExecRecord): Buffer {
  return Buffer.concat(rec.events.flatMap((e) => (e.kind === 'binary' && e.bytes[0] === 1 ? [Buffer.from(e.bytes.subarray(1))] : [])));
}

/** Runs `argv` over HTTP exec and splits the framed answer into stdout, stderr and the exit code. */
async function httpExec(argv: string[], opts: { stdin?: Uint8Array; query?: Record<string, string> } = {}) {
  const q = new URLSearchParams();
  for (const a of argv) q.append('cmd', a);
  if (opts.stdin) q.set('stdin', 'true');
  for (const [k, v] of Object.entries(opts.query ?? {})) q.set(k, v);
  const res = await fetch(`${srv.url}/v1/sprites/acme/exec?${q}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/octet-stream' },
    body: opts.stdin as BodyInit | undefined,
  });
  const body = Buffer.from(await res.arrayBuffer());
  // Frames `[stream][bytes]` end in `[3][code]`; fetch may merge chunks, so callers look at single-stream output.
  return { status: res.status, body, exit: body[body.length - 1], last: body[body.length - 2] };
}

const sh = (script: string) => ['bash', '-c', script];

describe.skipIf(skip)('sandbox engine through the API', () => {
  it('uname -a names Linux and the sprite', async () => {
    const rec = await wsExec(srv.url, `/v1/sprites/acme/exec?${execQuery(['uname', '-a'])}`);
    expect(rec.stdout).toMatch(/^Linux acme /);
    expect(rec.exitCode).toBe(0);
  });

  it('a multi-line bash script gets its env and dir, and its exact stdout, stderr and exit code', async () => {
    const script = [
      'echo "answer $((6*7))"',
      'echo "greeting $GREETING"',
      'pwd',
      'for i in 1 2 3; do printf "$i,"; done; echo',
      'echo "to stderr" >&2',
      'exit 3',
    ].join('\n');
    const rec = await wsExec(srv.url, `/v1/sprites/acme/exec?${execQuery(sh(script), { env: ['GREETING=hello from env'], dir: '/tmp' })}`);
    expect(rec.stdout).toBe('answer 42\ngreeting hello from env\n/tmp\n1,2,3,\n');
    expect(rec.stderr).toBe('to stderr\n');
    expect(rec.exitCode).toBe(3);
  });

  it('pipes stdin through sha256sum', async () => {
    const input = Buffer.from('spritzer sandbox stdin\n'.repeat(1000));
    const rec = await wsExec(srv.url, `/v1/sprites/acme/exec?${execQuery(['sha256sum'], { stdin: true })}`, (ws) => {
      ws.send(Buffer.concat([Buffer.from([0]), input]));
      ws.send(Buffer.from([4]));
    });
    expect(rec.stdout).toBe(`${createHash('sha256').update(input).digest('hex')}  -\n`);
  });

  it('a disconnected sleep 1000 is gone from ps a second later', async () => {
    const ws = new WebSocket(`${srv.url.replace('http', 'ws')}/v1/sprites/acme/exec?${execQuery(['sleep', '1000'])}`, {
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    await new Promise((r) => ws.once('message', r));
    const during = await wsExec(srv.url, `/v1/sprites/acme/exec?${execQuery(['ps', 'ax', '-o', 'args'])}`);
    expect(during.stdout).toContain('sleep 1000');
    ws.terminate();
    await new Promise((r) => setTimeout(r, 1000));
    const after = await wsExec(srv.url, `/v1/sprites/acme/exec?${execQuery(['ps', 'ax', '-o', 'args'])}`);
    expect(after.stdout).not.toContain('sleep 1000');
  });

  it('checkpoint and restore rewind files written by real commands', async () => {
    await wsExec(srv.url, `/v1/sprites/acme/exec?${execQuery(sh('echo before > /home/sprite/state; mkdir -p /home/sprite/d; date > /home/sprite/d/x'))}`);
    const created = await call('POST', '/v1/sprites/acme/checkpoint', { comment: 'base' });
    const id = /Checkpoint (v\d+) created/.exec(created.text)![1];
    await wsExec(srv.url, `/v1/sprites/acme/exec?${execQuery(sh('echo after > /home/sprite/state; rm -r /home/sprite/d; touch /home/sprite/new'))}`);
    const restored = await call('POST', `/v1/sprites/acme/checkpoints/${id}/restore`);
    expect(restored.text).toContain('"type":"complete"');
    const rec = await wsExec(srv.url, `/v1/sprites/acme/exec?${execQuery(sh('cat /home/sprite/state; ls /home/sprite/d; ls /home/sprite/new 2>&1 || true'))}`);
    expect(rec.stdout).toMatch(/^before\nx\n.*No such file or directory\n$/);
    expect((await call('GET', '/v1/sprites/acme/fs/read?path=/home/sprite/state')).text).toBe('before\n');
  });

  it("bytes are bytes: printf '\\377', every byte value over WebSocket and HTTP, binary stdin through cat", async () => {
    const ff = await wsExec(srv.url, `/v1/sprites/acme/exec?${execQuery(['printf', '\\377'])}`);
    expect([...stdoutBytes(ff)]).toEqual([0xff]);
    const all = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    expect((await call('PUT', '/v1/sprites/acme/fs/write?path=/tmp/all', all)).status).toBe(200);
    const ws = await wsExec(srv.url, `/v1/sprites/acme/exec?${execQuery(['cat', '/tmp/all'])}`);
    expect(stdoutBytes(ws).equals(all)).toBe(true);
    const http = await httpExec(['cat', '/tmp/all']);
    expect(http.body.subarray(0, 1)[0]).toBe(1);
    expect(http.body.includes(all)).toBe(true);
    expect([http.last, http.exit]).toEqual([3, 0]);
    const stdin = Buffer.from([0xff, 0x00, 0x80, 0x41]);
    const echoed = await wsExec(srv.url, `/v1/sprites/acme/exec?${execQuery(['cat'], { stdin: true })}`, (s) => {
      s.send(Buffer.concat([Buffer.from([0]), stdin]));
      s.send(Buffer.from([4]));
    });
    expect(stdoutBytes(echoed).equals(stdin)).toBe(true);
  });

  it('devices work: /dev/urandom, /dev/zero, /dev/null', async () => {
    const rec = await wsExec(srv.url, `/v1/sprites/acme/exec?${execQuery(sh('head -c 16 /dev/urandom | wc -c; head -c 4 /dev/zero | od -An -tx1; echo x > /dev/null && echo ok'))}`);
    expect(rec.stdout).toBe('16\n 00 00 00 00\nok\n');
  });

  it('a TERM through the kill API runs the trap: exit 7 and its cleanup file', async () => {
    const ws = new WebSocket(
      `${srv.url.replace('http', 'ws')}/v1/sprites/acme/exec?${execQuery(sh('trap "echo cleanup > /tmp/s; exit 7" TERM; while true; do sleep 1; done'), { extra: { detachable: 'true' } })}`,
      { headers: { Authorization: `Bearer ${TOKEN}` } },
    );
    const info = await new Promise<any>((r) => ws.once('message', (d) => r(JSON.parse(d.toString()))));
    const exited = new Promise<number>((resolve) => ws.on('message', (d, bin) => bin && (d as Buffer)[0] === 3 && resolve((d as Buffer)[1])));
    await new Promise((r) => setTimeout(r, 300));
    const kill = await call('POST', `/v1/sprites/acme/exec/${info.session_id}/kill?signal=TERM`);
    expect(kill.status).toBe(200);
    expect(await exited).toBe(7);
    ws.close();
    expect((await call('GET', '/v1/sprites/acme/fs/read?path=/tmp/s')).text).toBe('cleanup\n');
  });

  it('output is streamed: step1 has arrived before a TERM 1.5 s later ends the command', async () => {
    const rec = await wsExec(srv.url, `/v1/sprites/acme/exec?${execQuery(['sh', '-c', 'echo step1; sleep 30'])}`, (ws) => {
      setTimeout(() => ws.send(JSON.stringify({ type: 'signal', signal: 'TERM' })), 1500);
    });
    expect(rec.stdout).toBe('step1\n');
    const firstOut = rec.events.findIndex((e) => e.kind === 'binary' && e.bytes[0] === 1);
    const exitAt = rec.events.findIndex((e) => e.kind === 'binary' && e.bytes[0] === 3);
    expect(firstOut).toBeGreaterThan(-1);
    expect(firstOut).toBeLessThan(exitAt);
    expect(rec.exitCode).toBe(143);
  });

  it('background jobs get real pids; seq 1 200000 prints all 1,288,895 bytes', async () => {
    const bg = await wsExec(srv.url, `/v1/sprites/acme/exec?${execQuery(sh('sleep 2 & echo pid=$!'))}`);
    expect(bg.stdout).toMatch(/^pid=[1-9]\d*\n$/);
    const seq = await wsExec(srv.url, `/v1/sprites/acme/exec?${execQuery(['seq', '1', '200000'])}`);
    expect(stdoutBytes(seq).length).toBe(1_288_895);
  });

  it('ln -s missing /tmp/d; rm /tmp/d exits 0 and removes the link', async () => {
    const rec = await wsExec(srv.url, `/v1/sprites/acme/exec?${execQuery(sh('ln -s missing /tmp/d && rm /tmp/d && test ! -L /tmp/d && echo gone'))}`);
    expect(rec.stdout).toBe('gone\n');
    expect(rec.exitCode).toBe(0);
  });

  it('python3, git and a TTY run for real', async () => {
    const py = await wsExec(srv.url, `/v1/sprites/acme/exec?${execQuery(['python3', '-c', 'print(6*7)'])}`);
    expect(py.stdout).toBe('42\n');
    const git = await wsExec(srv.url, `/v1/sprites/acme/exec?${execQuery(sh('cd /tmp && git init -q r && echo ok'))}`);
    expect(git.stdout).toBe('ok\n');
    const tty = await wsExec(srv.url, `/v1/sprites/acme/exec?${execQuery(sh('tty; stty size'), { tty: true, rows: 30, cols: 100 })}`);
    expect(tty.stdout).toMatch(/^\/dev\/pts\/\d+\r\n30 100\r\n/);
  });

  it('10 parallel busy loops leave the API answering', async () => {
    const loops = Array.from({ length: 10 }, () => {
      const ws = new WebSocket(`${srv.url.replace('http', 'ws')}/v1/sprites/acme/exec?${execQuery(sh('while true; do :; done'))}`, {
        headers: { Authorization: `Bearer ${TOKEN}` },
      });
      return new Promise<WebSocket>((r) => ws.once('message', () => r(ws)));
    });
    const sockets = await Promise.all(loops);
    const health = await fetch(`${srv.url}/_spritzer/health`);
    expect(health.status).toBe(200);
    const other = await call('GET', '/v1/sprites/acme');
    expect(other.json.status).toBe('running');
    for (const ws of sockets) ws.terminate();
  });
});
