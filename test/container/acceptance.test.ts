/**
 * The container engine end to end through spritzer's own HTTP and WebSocket API (what a user does first): create a
 * sprite; `uname -a`; a multi-line bash script (stderr, exit 3, env, dir); piped stdin; a disconnected exec gets
 * killed; `python3 -m http.server` as a service reached through `/proxy`; a TTY; checkpoint → change → restore of
 * files written by real commands, and back through the automatic checkpoint the restore took; delete removes the
 * container and its checkpoint images.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { WebSocket } from 'ws';
import { api, execQuery, wsExec, TOKEN } from '../support/server.ts';
import { defaultDeps, startServer, type RunningServer } from '../../src/server/server.ts';
import { openMachineFactory } from '../../src/server/machines/index.ts';
import { SystemClock } from '../../src/server/core/clock.ts';
import { SequentialIds } from '../../src/server/core/ids.ts';
import { announceSkip, TEST_IMAGE, TEST_RUNTIME, testDocker } from './support.ts';

const NAMESPACE = 'ctest-acc';
const skip = await announceSkip('container acceptance', {
  kubernetes: `checkpoints (docker commit) are Docker/Podman only: on Kubernetes they are refused with \`checkpoints and disk usage are not available on the kubernetes runtime\` (test/k8s/kubernetes.test.ts); the rest of its story is test/k8s/real-cluster.test.ts`,
});
let srv: RunningServer;
let call: ReturnType<typeof api>;

beforeAll(async () => {
  if (skip) return;
  const clock = new SystemClock();
  const machines = await openMachineFactory('container', { clock, container: { image: TEST_IMAGE, namespace: NAMESPACE, runtime: TEST_RUNTIME } });
  srv = await startServer(defaultDeps({ clock, ids: new SequentialIds(), machines, token: TOKEN }));
  call = api(srv.url);
  expect((await call('POST', '/v1/sprites', { name: 'acme' })).status).toBe(201);
});
afterAll(async () => {
  await srv?.close();
});

const sh = (script: string) => ['bash', '-c', script];
const exec = (argv: string[], opts: Parameters<typeof execQuery>[1] = {}, send?: (ws: WebSocket) => void) =>
  wsExec(srv.url, `/v1/sprites/acme/exec?${execQuery(argv, opts)}`, send);

/** One HTTP/1.0 request through the `/proxy` WebSocket to `port` inside the sprite; the raw response, or null. */
async function viaProxy(port: number, request: string): Promise<string | null> {
  const ws = new WebSocket(`${srv.url.replace('http', 'ws')}/v1/sprites/acme/proxy`, { headers: { Authorization: `Bearer ${TOKEN}` } });
  return new Promise((resolve) => {
    let out = Buffer.alloc(0);
    let connected = false;
    ws.on('open', () => ws.send(JSON.stringify({ host: 'localhost', port })));
    ws.on('message', (data, binary) => {
      if (!binary) {
        connected = JSON.parse(data.toString()).status === 'connected';
        if (connected) ws.send(Buffer.from(request));
        return;
      }
      out = Buffer.concat([out, data as Buffer]);
    });
    ws.on('close', () => resolve(connected ? out.toString() : null));
    ws.on('error', () => resolve(null));
  });
}

describe.skipIf(skip)('container engine through the API', () => {
  it('uname -a names Linux and the sprite (the container hostname)', async () => {
    const rec = await exec(['uname', '-a']);
    expect(rec.stdout).toMatch(/^Linux acme /);
    expect(rec.exitCode).toBe(0);
  });

  it('a multi-line bash script gets its env and dir, and its exact stdout, stderr and exit code', async () => {
    const script = ['echo "answer $((6*7))"', 'echo "greeting $GREETING"', 'pwd', 'id -u', 'echo "to stderr" >&2', 'exit 3'].join('\n');
    const rec = await exec(sh(script), { env: ['GREETING=hello from env'], dir: '/tmp' });
    expect(rec.stdout).toBe('answer 42\ngreeting hello from env\n/tmp\n1001\n');
    expect(rec.stderr).toBe('to stderr\n');
    expect(rec.exitCode).toBe(3);
  });

  it('pipes stdin through sha256sum, byte for byte', async () => {
    const input = Buffer.from(Array.from({ length: 64 * 1024 }, (_, i) => (i * 7) % 256));
    const rec = await exec(['sha256sum'], { stdin: true }, (ws) => {
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
    expect((await exec(['ps', 'ax', '-o', 'args'])).stdout).toContain('sleep 1000');
    ws.terminate();
    await new Promise((r) => setTimeout(r, 1000));
    expect((await exec(['ps', 'ax', '-o', 'args'])).stdout).not.toContain('sleep 1000');
  });

  it('python3 -m http.server as a service answers 200 through /proxy, also after its exec ended', async () => {
    expect((await call('PUT', '/v1/sprites/acme/fs/write?path=/home/sprite/www/hello.txt&mkdir=true', 'hello from the container\n')).status).toBe(200);
    const put = await call('PUT', '/v1/sprites/acme/services/web?duration=0s', {
      cmd: 'python3',
      args: ['-m', 'http.server', '8080', '--bind', '127.0.0.1', '--directory', '/home/sprite/www'],
    });
    expect(put.status, put.text).toBe(200);
    let res: string | null = null;
    for (let i = 0; i < 50 && !res; i++) {
      res = await viaProxy(8080, 'GET /hello.txt HTTP/1.0\r\nHost: localhost\r\n\r\n');
      if (!res) await new Promise((r) => setTimeout(r, 200));
    }
    expect(res).toMatch(/^HTTP\/1\.0 200/);
    expect(res).toContain('hello from the container\n');
    await new Promise((r) => setTimeout(r, 3000));
    expect(await viaProxy(8080, 'GET /hello.txt HTTP/1.0\r\n\r\n')).toMatch(/^HTTP\/1\.0 200/);
    const ports = await exec(sh('cat /proc/net/tcp | grep -c " 0A "'));
    expect(Number(ports.stdout)).toBeGreaterThan(0);
    await call('POST', '/v1/sprites/acme/services/web/stop');
  });

  it('a TTY is a real pseudo-terminal of the asked size', async () => {
    const tty = await exec(sh('tty; stty size'), { tty: true, rows: 30, cols: 100 });
    expect(tty.stdout).toMatch(/^\/dev\/pts\/\d+\r\n30 100\r\n/);
  });

  it('checkpoint and restore rewind files written by real commands', async () => {
    await exec(sh('echo before > /home/sprite/state; mkdir -p /home/sprite/d; date > /home/sprite/d/x'));
    const created = await call('POST', '/v1/sprites/acme/checkpoint', { comment: 'base' });
    const id = /Checkpoint (v\d+) created/.exec(created.text)![1];
    await exec(sh('echo after > /home/sprite/state; rm -r /home/sprite/d; touch /home/sprite/new'));
    const restored = await call('POST', `/v1/sprites/acme/checkpoints/${id}/restore`);
    expect(restored.text).toContain('"type":"complete"');
    const rec = await exec(sh('cat /home/sprite/state; ls /home/sprite/d; ls /home/sprite/new 2>&1 || true'));
    expect(rec.stdout).toMatch(/^before\nx\n.*No such file or directory\n$/);
    expect((await call('GET', '/v1/sprites/acme/fs/read?path=/home/sprite/state')).text).toBe('before\n');
  });

  it('the automatic checkpoint that restore took (an image like any checkpoint) gives the replaced files back', async () => {
    const auto = (await call('GET', '/v1/sprites/acme/checkpoints?includeAuto=true')).json.find((c: { is_auto?: boolean }) => c.is_auto);
    expect(auto).toMatchObject({ id: expect.stringMatching(/^auto-\d{13}$/), comment: expect.stringMatching(/^pre-restore of v\d+$/) });
    const restored = await call('POST', `/v1/sprites/acme/checkpoints/${auto.id}/restore`);
    expect(restored.text).toContain(`Restore from ${auto.id} complete`);
    const rec = await exec(sh('cat /home/sprite/state; ls /home/sprite/d 2>&1 || true; ls /home/sprite/new'));
    expect(rec.stdout).toMatch(/^after\n.*No such file or directory\n\/home\/sprite\/new\n$/);
  });

  it('delete removes the container and its checkpoint images', async () => {
    const docker = testDocker();
    const labelled = () => docker.listContainers({ all: true, filters: { label: [`dev.spritzer.namespace=${NAMESPACE}`, 'dev.spritzer.sprite=acme'] } });
    expect(await labelled()).toHaveLength(1);
    expect((await docker.listImages({ filters: { reference: [`${NAMESPACE}-checkpoint`] } })).length).toBeGreaterThan(0);
    expect((await call('DELETE', '/v1/sprites/acme')).status).toBe(204);
    expect(await labelled()).toHaveLength(0);
    expect(await docker.listImages({ filters: { reference: [`${NAMESPACE}-checkpoint`] } })).toHaveLength(0);
  });
});
