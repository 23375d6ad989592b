/**
 * Graceful shutdown of the `spritzer` command, in a child process: on SIGTERM an NDJSON stream
 * in flight finishes, a running exec ends with its real exit frame, other WebSockets close with 1001, the data
 * dir is saved and released, and the process exits 0.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WebSocket } from 'ws';
import { afterAll, describe, expect, it } from 'vitest';
import { api, execQuery, TOKEN, wsExec } from '../../support/server.ts';

const BIN = fileURLToPath(new URL('../../../bin/spritzer.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'spritzer-shutdown-'));
let child: ChildProcess | undefined;
afterAll(() => {
  child?.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

function start(): Promise<string> {
  return new Promise((resolve, reject) => {
    child = spawn(process.execPath, [BIN, '--addr', '127.0.0.1:0', '--data-dir', dir, '--log-level', 'silent', '--shutdown-timeout', '8000'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`exited ${code} before listening`)));
  });
}

describe('SIGTERM', () => {
  it('lets a stream finish, ends execs with their exit frame, closes sockets with 1001, saves and exits 0', async () => {
    const url = await start();
    const call = api(url);
    expect((await call('POST', '/v1/sprites', { name: 'calm' })).status).toBe(201);
    expect((await call('PUT', '/v1/sprites/calm/fs/write?path=/home/sprite/kept.txt', 'kept')).status).toBe(200);

    let started!: () => void;
    const up = new Promise<void>((r) => (started = r));
    const exec = wsExec(url, `/v1/sprites/calm/exec?${execQuery(['sh', '-c', 'echo up; sleep 100'])}`, (ws) => {
      ws.on('message', (data, binary) => {
        if (!binary && String(data).includes('session_info')) started(); // the command runs
      });
    });
    await up;
    const watch = new WebSocket(`${url.replace(/^http/, 'ws')}/v1/sprites/calm/fs/watch`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    await new Promise((r, j) => watch.once('open', r).once('error', j));
    const watchClosed = new Promise<number>((r) => watch.once('close', (code) => r(code)));
    // An NDJSON stream that runs for 1.5 s: a service's logs with `duration`.
    const stream = call('PUT', '/v1/sprites/calm/services/tick?duration=1500ms', { cmd: 'sh', args: ['-c', 'echo tick; sleep 100'] });
    await new Promise((r) => setTimeout(r, 300));

    const exited = new Promise<number | null>((r) => child!.once('exit', (code) => r(code)));
    child!.kill('SIGTERM');

    const streamed = await stream;
    expect(streamed.status).toBe(200);
    expect(streamed.text).toContain('tick');
    const rec = await exec;
    expect(rec.exitCode).toBe(143);
    expect(await watchClosed).toBe(1001);
    expect(await exited).toBe(0);
    expect(existsSync(join(dir, 'spritzer.pid'))).toBe(false);
    await expect(fetch(`${url}/_spritzer/health`)).rejects.toThrow();

    const again = api(await start());
    expect((await again('GET', '/v1/sprites/calm/fs/read?path=/home/sprite/kept.txt')).text).toBe('kept');
    expect((await again('GET', '/v1/sprites/calm/services/tick')).json.state.status).toBe('running');
  }, 60_000);
});
