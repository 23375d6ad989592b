import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startTestServer, wsExec, execQuery, ENGINES, SANDBOX_RUN, TOKEN } from '../../support/server.ts';
import type { RunningServer } from '../../../src/server/server.ts';

describe.each(ENGINES)('execCommand over WebSocket (%s engine)', (engine) => {
  let srv: RunningServer;
  let call: ReturnType<typeof api>;
  beforeAll(async () => {
    srv = await startTestServer(engine, { token: TOKEN });
    call = api(srv.url);
    await call('POST', '/v1/sprites', { name: 'box' });
  });
  afterAll(() => srv.close());

  it('sends session_info first, stdout as [1]…, exactly [3,0] last, then closes 1000', async () => {
    const rec = await wsExec(srv.url, `/v1/sprites/box/exec?${execQuery(['echo', 'hello', 'world'])}`);
    expect(rec.events[0]).toMatchObject({ kind: 'text', value: { type: 'session_info', tty: false, is_owner: true } });
    expect(typeof rec.sessionInfo.session_id).toBe('string');
    expect(rec.stdout).toBe('hello world\n');
    const last = rec.events[rec.events.length - 1];
    expect(last.kind).toBe('binary');
    expect(Array.from((last as { bytes: Uint8Array }).bytes)).toEqual([3, 0]);
    expect(rec.closeCode).toBe(1000);
    expect(rec.upgradeHeaders['x-sprite-capabilities']).toContain('signal');
    expect(rec.upgradeHeaders['sprite-version']).toBeTruthy();
  });

  it('reports a non-zero exit code', async () => {
    const rec = await wsExec(srv.url, `/v1/sprites/box/exec?${execQuery(['false'])}`);
    expect(rec.exitCode).toBe(1);
  });

  it('does not hang when the client asks for stdin but never sends EOF (the JS SDK exec())', async () => {
    const rec = await wsExec(srv.url, `/v1/sprites/box/exec?${execQuery(['echo', 'ok'], { stdin: true })}`);
    expect(rec.stdout).toBe('ok\n');
    expect(rec.exitCode).toBe(0);
  });

  it('runs 200 parallel execs, each getting its stdout and then [3,0]', async () => {
    const recs = await Promise.all(
      Array.from({ length: 200 }, () => wsExec(srv.url, `/v1/sprites/box/exec?${execQuery(['echo', 'ok'])}`)),
    );
    for (const rec of recs) {
      expect(rec.stdout).toBe('ok\n');
      expect(rec.exitCode).toBe(0);
      const last = rec.events[rec.events.length - 1] as { bytes: Uint8Array };
      expect(Array.from(last.bytes)).toEqual([3, 0]);
    }
    const ids = new Set(recs.map((r) => r.sessionInfo.session_id));
    expect(ids.size).toBe(200);
  });

  it('rejects bad handshakes with an HTTP status and the JSON envelope', async () => {
    await expect(wsExec(srv.url, `/v1/sprites/box/exec?${execQuery(['true'])}`, undefined, 'bad')).rejects.toMatchObject({ status: 401 });
    await expect(wsExec(srv.url, `/v1/sprites/nope/exec?${execQuery(['true'])}`)).rejects.toMatchObject({ status: 404, body: '{"error":"sprite not found"}' });
    await expect(wsExec(srv.url, `/v1/sprites/box/exec?${execQuery(['true'], { extra: { tty: 'maybe' } })}`)).rejects.toMatchObject({ status: 400 });
    await expect(wsExec(srv.url, `/v1/sprites/box/exec`)).rejects.toMatchObject({ status: 400 });
    await expect(wsExec(srv.url, `/v1/sprites/box/exec/999999`)).rejects.toMatchObject({ status: 404 });
  });

  it('mutates the same filesystem the fs API reads', async () => {
    const rec = await wsExec(srv.url, `/v1/sprites/box/exec?${execQuery(['sh', '-c', 'echo v1 > /home/sprite/key'])}`);
    expect(rec.exitCode).toBe(0);
    const r = await call('GET', '/v1/sprites/box/fs/read?path=/home/sprite/key');
    expect(r.status).toBe(200);
    expect(r.text.trim()).toBe('v1');
  });

  it('execHttp streams the same frames in an octet-stream body', async () => {
    const res = await fetch(`${srv.url}/v1/sprites/box/exec?${execQuery(['echo', 'via', 'http'])}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/octet-stream');
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(bytes[0]).toBe(1);
    expect(Buffer.from(bytes.subarray(1, bytes.length - 2)).toString()).toBe('via http\n');
    expect(Array.from(bytes.subarray(bytes.length - 2))).toEqual([3, 0]);
  });

  it('HEAD …/exec answers with Sprite-Version; GET …/exec lists sessions', async () => {
    const head = await fetch(`${srv.url}/v1/sprites/box/exec`, { method: 'HEAD', headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(head.status).toBe(200);
    expect(head.headers.get('sprite-version')).toMatch(/rc\d+/);
    const list = await call('GET', '/v1/sprites/box/exec');
    expect(list.status).toBe(200);
    expect(list.json).toEqual({ sessions: [], count: 0 });
  });
});

describe.skipIf(SANDBOX_RUN)('execCommand on the shell engine', () => {
  let srv: RunningServer;
  let call: ReturnType<typeof api>;
  beforeAll(async () => {
    srv = await startTestServer('shell');
    call = api(srv.url);
    await call('POST', '/v1/sprites', { name: 'sh' });
  });
  afterAll(() => srv.close());
  const run = (argv: string[], opts: Parameters<typeof execQuery>[1] = {}, send?: Parameters<typeof wsExec>[2]) =>
    wsExec(srv.url, `/v1/sprites/sh/exec?${execQuery(argv, opts)}`, send);

  it('exit codes 0, 1, 42 and 255 arrive as [3, code]', async () => {
    for (const code of [0, 1, 42, 255]) expect((await run(['sh', '-c', `exit ${code}`])).exitCode).toBe(code);
  });

  it('keeps stderr apart from stdout', async () => {
    const rec = await run(['bash', '-c', 'echo out; echo err 1>&2']);
    expect(rec.stdout).toBe('out\n');
    expect(rec.stderr).toBe('err\n');
  });

  it('pipes stdin frames until [4] EOF', async () => {
    const rec = await run(['cat'], { stdin: true }, (ws) => {
      ws.send(Buffer.from([0, ...Buffer.from('hello ')]));
      ws.send(Buffer.from([0, ...Buffer.from('stdin')]));
      ws.send(Buffer.from([4]));
    });
    expect(rec.stdout).toBe('hello stdin');
  });

  it('replaces the environment with env= and honours dir', async () => {
    const rec = await run(['sh', '-lc', 'echo "$FOO:$HOME"; pwd'], { env: ['FOO=bar'], dir: '/tmp' });
    expect(rec.stdout).toBe('bar:\n/tmp\n');
    const dflt = await run(['bash', '-lc', 'echo $HOME $USER; pwd']);
    expect(dflt.stdout).toBe('/home/sprite sprite\n/home/sprite\n');
  });

  it('tty=true: stty size answers like a terminal, output is raw bytes, exit is a text message', async () => {
    const rec = await run(['sh', '-c', 'stty size; tty'], { tty: true, rows: 24, cols: 80 });
    expect(rec.sessionInfo.tty).toBe(true);
    expect(rec.stdout).toContain('24 80');
    expect(rec.exitCode).toBe(0);
    expect(rec.closeCode).toBe(1000);
    const notTty = await run(['tty']);
    expect(notTty.stdout).toContain('not a tty');
    expect(notTty.exitCode).toBe(1);
  });

  it('a signal text message ends the command', async () => {
    const rec = await run(['sleep', '30'], {}, (ws) => setTimeout(() => ws.send(JSON.stringify({ type: 'signal', signal: 'SIGTERM' })), 50));
    expect(rec.exitCode).toBe(143);
  });
});
