// The control socket (docs/wire-reference.md §5): one socket, one operation at a time, reused. Exec ops with the
// JS/PY envelope, the busy and not-active answers, attach by id, the auto-start query form, and the sprites-go
// bare proxy start. Every frame the server sends is validated against spec/asyncapi.yaml (`controlSessionOutput`).
import { beforeAll, describe, expect } from 'vitest';
import { useConformance, verified, emulatorOnly, connectWs, HandshakeFailure, type WsConnection, type RecordedFrame } from './support/index.ts';

const { target, call, sprites } = useConformance();
let box: string;
beforeAll(async () => {
  box = (await sprites.create()).name;
});

const control = (query?: Record<string, string | string[]>) =>
  connectWs(target(), `/v1/sprites/${box}/control`, { output: 'controlSessionOutput', ...(query ? { query } : {}) });

const start = (args: Record<string, unknown>, op = 'exec') => `control:${JSON.stringify({ type: 'op.start', op, args })}`;

/** The frames of one op: from `from` up to and including its op.complete / op.error. */
async function opFrames(conn: WsConnection, from: number): Promise<RecordedFrame[]> {
  const isEnd = (f: RecordedFrame) => !f.binary && (f.json?.type === 'op.complete' || f.json?.type === 'op.error');
  await conn.waitFor((f) => conn.frames.indexOf(f) >= from && isEnd(f));
  const end = conn.frames.findIndex((f, i) => i >= from && isEnd(f));
  return conn.frames.slice(from, end + 1);
}

/** stdout, stderr and the exit frame's code of non-TTY op frames. */
function decode(frames: RecordedFrame[]): { stdout: string; stderr: string; exit: number | undefined } {
  let stdout = '';
  let stderr = '';
  let exit: number | undefined;
  for (const f of frames) {
    if (!f.binary) continue;
    const payload = Buffer.from(f.data.subarray(1)).toString();
    if (f.data[0] === 1) stdout += payload;
    if (f.data[0] === 2) stderr += payload;
    if (f.data[0] === 3) exit = f.data[1];
  }
  return { stdout, stderr, exit };
}

describe('controlSession', () => {
  verified.it('runs an exec op: op.ack, session_info, output, [3, code], then op.complete with the exit code', async () => {
    const conn = await control();
    conn.sendText(start({ cmd: ['sh', '-c', 'echo out; echo err >&2; exit 3'], stdin: 'true' }));
    conn.sendBinary([4]);
    const frames = await opFrames(conn, 0);
    expect(frames[0].json).toMatchObject({ type: 'op.ack' });
    expect(frames[1].json).toMatchObject({ type: 'session_info', tty: false, session_id: expect.any(String) });
    expect(decode(frames)).toEqual({ stdout: 'out\n', stderr: 'err\n', exit: 3 });
    const exitAt = frames.findIndex((f) => f.message === 'exitFrame');
    expect(frames.at(-1)!.json).toEqual({ type: 'op.complete', op: 'exec', args: { exitCode: 3 } });
    expect(exitAt).toBe(frames.length - 2);
    expect(conn.ws.readyState).toBe(conn.ws.OPEN);
    conn.ws.close();
  });

  verified.it('reuses the socket for the next op, with dir, env, and stdin in the [0] and raw dialects', async () => {
    const conn = await control();
    conn.sendText(start({ cmd: ['pwd'], dir: '/tmp', stdin: 'false' }));
    let frames = await opFrames(conn, 0);
    expect(decode(frames)).toMatchObject({ stdout: '/tmp\n', exit: 0 });

    let from = conn.frames.length;
    conn.sendText(start({ cmd: ['sh', '-c', 'echo "$A-$B"'], env: ['A=1', 'B=2'] }));
    frames = await opFrames(conn, from);
    expect(decode(frames)).toMatchObject({ stdout: '1-2\n', exit: 0 });

    from = conn.frames.length;
    conn.sendText(start({ cmd: ['cat'], stdin: 'true' }));
    conn.sendBinary([0, ...Buffer.from('framed ')]);
    conn.sendBinary([...Buffer.from('raw\n')]); // sprites-go's raw form (§5.2 DISAGREEMENT)
    conn.sendBinary([4]);
    frames = await opFrames(conn, from);
    expect(decode(frames)).toMatchObject({ stdout: 'framed raw\n', exit: 0 });
    conn.ws.close();
  });

  verified.it('answers a second op.start while one runs with op.error busy, and the running op goes on', async () => {
    const conn = await control();
    conn.sendText(start({ cmd: ['sh', '-c', 'sleep 0.5; echo first'] }));
    await conn.waitFor((f) => f.json?.type === 'session_info');
    conn.sendText(start({ cmd: ['echo', 'second'] }));
    const busy = await conn.waitFor((f) => f.json?.type === 'op.error');
    expect(busy.json.args).toMatchObject({ error: expect.stringContaining('already running'), code: 'op.busy' });
    const frames = await opFrames(conn, conn.frames.indexOf(busy) + 1);
    expect(decode(frames)).toMatchObject({ stdout: 'first\n', exit: 0 });
    expect(frames.at(-1)!.json).toMatchObject({ type: 'op.complete', args: { exitCode: 0 } });
    conn.ws.close();
  });

  verified.it('answers data frames and stray text while idle with op.error not_active, and stays open', async () => {
    const conn = await control();
    conn.sendBinary([0, 104, 105]);
    const first = await conn.waitFor((f) => f.json?.type === 'op.error');
    expect(first.json.args.code).toBe('op.not_active');
    conn.sendText('{"type":"resize","cols":80,"rows":24}');
    await conn.waitFor((f) => f !== first && f.json?.type === 'op.error');
    conn.sendText('{"type":"release"}'); // sprites-go's release while idle is a no-op
    conn.sendText(start({ cmd: ['echo', 'still open'] }));
    const frames = await opFrames(conn, 2);
    expect(decode(frames).stdout).toBe('still open\n');
    conn.ws.close();
  });

  verified.it('answers malformed envelopes and unknown ops with op.error, and stays open', async () => {
    const conn = await control();
    const answers: Array<[string, string]> = [
      ['control:{"type":', 'op.invalid'],
      ['control:{"type":"op.bogus"}', 'op.invalid'],
      ['control:{"type":"op.complete","args":{"exitCode":0}}', 'op.invalid'],
      [start({}, 'teleport'), 'op.not_found'],
      [start({ cmd: [] }), 'op.failed'],
      [start({ cmd: ['true'], dir: '/no/such/dir' }), 'op.failed'],
      [start({ cmd: ['true'], tty: 'maybe' }), 'op.failed'],
    ];
    for (const [i, [text, code]] of answers.entries()) {
      conn.sendText(text);
      await conn.waitFor((f) => f.json?.type === 'op.error' && conn.frames.filter((g) => g.json?.type === 'op.error').indexOf(f) === i);
      expect(conn.frames.at(-1)!.json.args.code, text).toBe(code);
    }
    expect(conn.frames.find((f) => f.json?.args?.error?.includes('chdir /no/such/dir'))).toBeDefined();
    conn.sendText(start({ cmd: ['echo', 'ok'] }));
    const frames = await opFrames(conn, conn.frames.length);
    expect(decode(frames).stdout).toBe('ok\n');
    conn.ws.close();
  });

  verified.it('auto-starts the op named by ?op= on the upgrade', async () => {
    const conn = await control({ op: 'exec', cmd: ['echo', 'auto'] });
    const frames = await opFrames(conn, 0);
    expect(decode(frames)).toMatchObject({ stdout: 'auto\n', exit: 0 });
    conn.ws.close();
  });

  verified.it('runs a TTY op: raw output, the exit text message, then op.complete', async () => {
    const conn = await control();
    conn.sendText(start({ cmd: ['sh', '-c', 'stty size; exit 4'], tty: 'true', rows: '24', cols: '80', stdin: 'true' }));
    const frames = await opFrames(conn, 0);
    expect(frames.find((f) => f.json?.type === 'session_info')?.json.tty).toBe(true);
    const out = frames.filter((f) => f.binary).map((f) => Buffer.from(f.data).toString()).join('');
    expect(out).toBe('24 80\r\n');
    expect(frames.at(-2)!.json).toEqual({ type: 'exit', exit_code: 4 });
    expect(frames.at(-1)!.json).toMatchObject({ type: 'op.complete', args: { exitCode: 4 } });
    conn.ws.close();
  });

  emulatorOnly.it('refuses an unknown ?op= with 400 before the upgrade, and an unknown sprite with 404', async () => {
    await expect(control({ op: 'teleport' })).rejects.toMatchObject({ status: 400 });
    const missing = connectWs(target(), '/v1/sprites/no-such-sprite-here/control', { output: 'controlSessionOutput' });
    await expect(missing).rejects.toBeInstanceOf(HandshakeFailure);
    await expect(missing).rejects.toMatchObject({ status: 404 });
    await expect(connectWs(target(), `/v1/sprites/${box}/control`, { output: 'controlSessionOutput', authorization: null })).rejects.toMatchObject({ status: 401 });
  });

  verified.it('attaches to a running session by id: session_info first, then its output, then op.complete', async () => {
    const creator = await control();
    creator.sendText(start({ cmd: ['sh', '-c', 'sleep 1; echo attached-out'], tty: 'true', stdin: 'true' }));
    const info = await creator.waitFor((f) => f.json?.type === 'session_info');
    const id = info.json.session_id as string;
    const listed = await call('GET', `/v1/sprites/${box}/exec`);
    expect(listed.json.sessions.map((s: { id: string }) => String(s.id))).toContain(id);
    creator.ws.close(); // a TTY session lives on when its socket drops (§4.7)
    await creator.closed;

    const attach = await control();
    attach.sendText(start({ id, stdin: 'true' }));
    const frames = await opFrames(attach, 0);
    expect(frames[0].json).toMatchObject({ type: 'op.ack' });
    expect(frames[1].json).toMatchObject({ type: 'session_info', session_id: id, tty: true });
    expect(frames.filter((f) => f.binary).map((f) => Buffer.from(f.data).toString()).join('')).toContain('attached-out');
    expect(frames.at(-1)!.json).toMatchObject({ type: 'op.complete', args: { exitCode: 0 } });
    attach.ws.close();
  });
});
