import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { api, execQuery, startTestServer, TOKEN } from '../../support/server.ts';
import type { RunningServer } from '../../../src/server/server.ts';
import { FakeClock } from '../../../src/server/core/clock.ts';

// Job control through the server, on the default `shell` engine: background jobs, `$!`, `wait`, `kill` and
// traps over WebSocket exec and HTTP exec. Time is the server's fake clock: "at once" and "about 2 s later" are
// what arrived before and after the clock was moved, never a wall-clock measure. Unit tests: machines/memory/shell/jobs.test.ts.

const clock = new FakeClock(Date.parse('2026-06-01T00:00:00Z'));

/** Waits (turns of the event loop, no clock) until `done()` holds; fails after 20,000 turns. */
async function until(done: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 20_000; i++) {
    if (done()) return;
    await new Promise((r) => setImmediate(r));
  }
  throw new Error(`never happened: ${what}`);
}

/** A WebSocket exec whose frames are recorded as they arrive. */
function openExec(url: string, sprite: string, argv: string[]) {
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/v1/sprites/${sprite}/exec?${execQuery(argv)}`, { headers: { Authorization: `Bearer ${TOKEN}` } });
  const rec = { stdout: '', stderr: '', exit: null as number | null, pid: 0, closed: false };
  ws.on('message', (data: Buffer, binary) => {
    if (!binary) {
      const msg = JSON.parse(data.toString());
      if (msg.type === 'session_info') rec.pid = Number(msg.session_id);
      return;
    }
    if (data[0] === 1) rec.stdout += data.subarray(1).toString();
    if (data[0] === 2) rec.stderr += data.subarray(1).toString();
    if (data[0] === 3) rec.exit = data[1]!;
  });
  ws.on('close', () => (rec.closed = true));
  return { ws, rec };
}

describe('shell engine job control, as a client sees it', () => {
  let srv: RunningServer;
  let call: ReturnType<typeof api>;
  beforeAll(async () => {
    srv = await startTestServer('shell', { clock });
    call = api(srv.url);
    expect((await call('POST', '/v1/sprites', { name: 'jobs' })).status).toBe(201);
  });
  afterAll(() => srv.close());

  it('WebSocket: `sleep 2 & echo pid=$!` prints a non-zero pid at once; `wait` ends the exec 2 s later', async () => {
    const { rec } = openExec(srv.url, 'jobs', ['sh', '-c', 'sleep 2 & echo pid=$!; wait; echo waited']);
    await until(() => rec.stdout !== '', 'the pid line');
    expect(rec.stdout).toMatch(/^pid=[1-9]\d*\n$/);
    expect(Number(rec.stdout.slice(4))).toBeGreaterThan(rec.pid);
    // The job reaches its `sleep` some turns after the pid line; its timer must exist before the clock moves.
    await until(() => clock.pending() > 0, "the job's sleep");
    clock.advance(1999);
    for (let i = 0; i < 200; i++) await new Promise((r) => setImmediate(r));
    expect(rec.exit).toBeNull();
    clock.advance(1);
    await until(() => rec.closed, 'the exit');
    expect([rec.stdout.split('\n')[1], rec.stderr, rec.exit]).toEqual(['waited', '', 0]);
  });

  it('HTTP exec: the pid line is sent before the clock moves, the exit frame after', async () => {
    const res = await fetch(`${srv.url}/v1/sprites/jobs/exec?${execQuery(['sh', '-c', 'sleep 2 & echo pid=$!; wait $!; echo "st=$?"'])}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    let body = Buffer.alloc(0);
    let ended = false;
    const pump = (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        body = Buffer.concat([body, Buffer.from(value)]);
      }
      ended = true;
    })();
    await until(() => body.includes('pid='), 'the pid frame');
    expect(body[0]).toBe(1);
    expect(body.subarray(1).toString()).toMatch(/^pid=[1-9]\d*\n$/);
    expect(ended).toBe(false);
    clock.advance(2000);
    await pump;
    expect(body.subarray(body.length - 2)).toEqual(Buffer.from([3, 0]));
    expect(body.toString('latin1')).toContain('st=0\n');
  });

  it('kill %1 ends a job: wait gives 143, and jobs lists it first as Running', async () => {
    const { rec } = openExec(srv.url, 'jobs', ['sh', '-c', 'sleep 100 & jobs; kill %1; wait %1; echo "st=$?"']);
    await until(() => rec.closed, 'the exit');
    expect([rec.stdout, rec.stderr, rec.exit]).toEqual(['[1]+  Running                 sleep 100 &\nst=143\n', '', 0]);
  });

  it('a job writes the sprite disk, seen through the fs API', async () => {
    const { rec } = openExec(srv.url, 'jobs', ['sh', '-c', '(sleep 1; echo from-job > /tmp/job.txt) & wait']);
    await until(() => clock.pending() > 0, 'the sleep');
    clock.advance(1000);
    await until(() => rec.closed, 'the exit');
    expect(rec.exit).toBe(0);
    expect((await call('GET', '/v1/sprites/jobs/fs/read?path=/tmp/job.txt')).text).toBe('from-job\n');
  });

  it('a signal frame runs the TERM trap, then the EXIT trap, before the exit frame', async () => {
    const { ws, rec } = openExec(srv.url, 'jobs', ['sh', '-c', "trap 'echo cleanup; exit 3' TERM; trap 'echo bye' EXIT; echo ready; sleep 30"]);
    await until(() => rec.stdout === 'ready\n' && clock.pending() > 0, 'ready');
    ws.send(JSON.stringify({ type: 'signal', signal: 'TERM' }));
    await until(() => rec.closed, 'the exit');
    expect([rec.stdout, rec.exit]).toEqual(['ready\ncleanup\nbye\n', 3]);
  });

  it('a nohup job outlives its exec and writes the disk; a checkpoint restore ends it', async () => {
    const first = openExec(srv.url, 'jobs', ['sh', '-c', 'nohup sh -c "sleep 1; echo one > /tmp/n1; sleep 10; echo two > /tmp/n2" & echo started']);
    await until(() => first.rec.closed, 'the first exit');
    expect([first.rec.stdout, first.rec.exit]).toEqual(['started\n', 0]);
    await until(() => clock.pending() > 0, 'the job sleeping');
    clock.advance(1000);
    await until(() => clock.pending() > 0, 'the second sleep');
    expect((await call('GET', '/v1/sprites/jobs/fs/read?path=/tmp/n1')).text).toBe('one\n');
    expect((await call('POST', '/v1/sprites/jobs/checkpoint', {})).status).toBe(200);
    expect((await call('POST', '/v1/sprites/jobs/checkpoints/v1/restore')).status).toBe(200);
    clock.advance(10_000);
    for (let i = 0; i < 200; i++) await new Promise((r) => setImmediate(r));
    expect((await call('GET', '/v1/sprites/jobs/fs/read?path=/tmp/n2')).status).toBe(404);
  });

  it('a plain `&` job outlives an exec that ended by itself: it keeps writing, a later exec sees it in `ps` and kills it', async () => {
    const first = openExec(srv.url, 'jobs', ['bash', '-c', 'while true; do echo tick >> /tmp/ticks; sleep 1; done & echo "job=$!"']);
    await until(() => first.rec.closed, 'the first exit');
    expect(first.rec.exit).toBe(0);
    const job = Number(/^job=(\d+)\n$/.exec(first.rec.stdout)![1]);
    for (let n = 1; n <= 3; n++) {
      await until(() => clock.pending() > 0, 'the job sleeping');
      clock.advance(1000);
    }
    await until(() => clock.pending() > 0, 'the job sleeping again');
    expect((await call('GET', '/v1/sprites/jobs/fs/read?path=/tmp/ticks')).text).toBe('tick\n'.repeat(4));
    const second = openExec(srv.url, 'jobs', ['bash', '-c', `ps -o pid=,ppid=,args= -p ${job}; kill ${job}; echo "st=$?"`]);
    await until(() => second.rec.closed, 'the second exit');
    expect([second.rec.stdout.replace(/ +/g, ' ').trim(), second.rec.exit]).toEqual([`${job} 1 bash -c while true; do echo tick >> /tmp/ticks; sleep 1; done & echo "job=$!"\nst=0`, 0]);
    clock.advance(5000);
    for (let i = 0; i < 200; i++) await new Promise((r) => setImmediate(r));
    expect((await call('GET', '/v1/sprites/jobs/fs/read?path=/tmp/ticks')).text).toBe('tick\n'.repeat(4));
  });

  it('the kill API (HTTP) runs the INT trap; background jobs end with the exec', async () => {
    const { rec } = openExec(srv.url, 'jobs', ['sh', '-c', "(sleep 5; echo late > /tmp/late.txt) & trap 'echo interrupted' INT; sleep 30"]);
    await until(() => rec.pid > 0 && clock.pending() >= 2, 'both sleeps');
    const killed = await call('POST', `/v1/sprites/jobs/exec/${rec.pid}/kill?signal=INT`);
    expect(killed.status).toBe(200);
    await until(() => rec.closed, 'the exit');
    expect([rec.stdout, rec.exit]).toEqual(['interrupted\n', 130]);
    clock.advance(5000);
    for (let i = 0; i < 200; i++) await new Promise((r) => setImmediate(r));
    expect((await call('GET', '/v1/sprites/jobs/fs/read?path=/tmp/late.txt')).status).toBe(404);
  });
});
