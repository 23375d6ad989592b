// Exec (docs/wire-reference.md §4): the WebSocket exec channel (exit codes, stderr apart, stdin with EOF, env, dir,
// framing and handshake failures), HTTP exec, the version probe, the session list, one session, kill and
// attach. Every frame is validated against spec/asyncapi.yaml by the ws client.
import { beforeAll, describe, expect } from 'vitest';
import { useConformance, verified, emulatorOnly, runExec, openExec, connectWs, summarizeExec, execQuery, HandshakeFailure, execBinaryMessages, type ExecResult } from './support/index.ts';

const { target, call, sprites } = useConformance();
let box: string;
beforeAll(async () => {
  box = (await sprites.create()).name;
});

/** Asserts the non-TTY ending of §4.4: `[3, code]` is the last binary frame, nothing but `exit` text follows. */
function expectCleanEnd(rec: ExecResult): void {
  expect(rec.violation).toBeUndefined();
  const exitAt = rec.frames.findIndex((f) => f.message === 'exitFrame');
  expect(exitAt).toBeGreaterThan(-1);
  expect(rec.frames.slice(exitAt + 1).every((f) => f.message === 'exit')).toBe(true);
  expect(rec.closeCode).toBe(1000);
}

describe('execCommand', () => {
  verified.it('sends session_info first, then stdout frames, then exactly [3, 0], then closes 1000', async () => {
    const rec = await runExec(target(), box, ['echo', 'hello', 'world']);
    expect(rec.frames[0].message).toBe('sessionInfo');
    expect(rec.sessionInfo.tty).toBe(false);
    expect(rec.stdout).toBe('hello world\n');
    expect(rec.exitCode).toBe(0);
    expectCleanEnd(rec);
    expect(String(rec.upgradeHeaders['x-sprite-capabilities'])).toContain('signal');
  });

  verified.it('reports exit codes 0, 1, 42 and 255 in the exit frame', async () => {
    for (const code of [0, 1, 42, 255]) {
      const rec = await runExec(target(), box, ['sh', '-c', `exit ${code}`]);
      expect(rec.exitCode, `exit ${code}`).toBe(code);
      expectCleanEnd(rec);
    }
  });

  verified.it('keeps stderr apart from stdout', async () => {
    const rec = await runExec(target(), box, ['sh', '-c', 'echo out; echo err 1>&2; echo out2']);
    expect(rec.stdout).toBe('out\nout2\n');
    expect(rec.stderr).toBe('err\n');
    expect(rec.exitCode).toBe(0);
  });

  verified.it('pipes stdin frames to the command until the [4] EOF frame', async () => {
    const rec = await runExec(target(), box, ['cat'], { stdin: true }, (conn) => {
      conn.sendBinary([0, ...Buffer.from('hello ')]);
      conn.sendBinary([0, ...Buffer.from('stdin\n')]);
      conn.sendBinary([4]);
    });
    expect(rec.stdout).toBe('hello stdin\n');
    expect(rec.exitCode).toBe(0);
    expectCleanEnd(rec);
  });

  verified.it('replaces the environment with the env parameters', async () => {
    const rec = await runExec(target(), box, ['sh', '-c', 'echo "$GREETING|${SPRITZER_NOT_SET-unset}"'], { env: ['GREETING=hi there'] });
    expect(rec.stdout).toBe('hi there|unset\n');
  });

  verified.it('runs in /home/sprite by default and in dir when given', async () => {
    const home = await runExec(target(), box, ['pwd']);
    expect(home.stdout.trim()).toBe('/home/sprite');
    const tmp = await runExec(target(), box, ['pwd'], { dir: '/tmp' });
    expect(tmp.stdout.trim()).toBe('/tmp');
  });

  verified.it('changes the same filesystem the fs API reads', async () => {
    const rec = await runExec(target(), box, ['sh', '-c', 'echo from-exec > /home/sprite/exec-made.txt']);
    expect(rec.exitCode).toBe(0);
    const read = await call('GET', `/v1/sprites/${box}/fs/read`, { query: { path: '/home/sprite/exec-made.txt' } });
    expect(read.text).toBe('from-exec\n');
  });

  verified.it('fails the handshake with an HTTP status, never 101 then close', async () => {
    const t = target();
    await expect(connectWs(t, `/v1/sprites/${box}/exec`, { output: 'execCommandOutput', query: execQuery(['true']), authorization: 'Bearer wrong' })).rejects.toMatchObject({ status: 401 });
    await expect(connectWs(t, `/v1/sprites/${sprites.name('nope')}/exec`, { output: 'execCommandOutput', query: execQuery(['true']) })).rejects.toMatchObject({ status: 404 });
    const noCmd = connectWs(t, `/v1/sprites/${box}/exec`, { output: 'execCommandOutput', query: { stdin: false } });
    await expect(noCmd).rejects.toBeInstanceOf(HandshakeFailure);
    await expect(noCmd).rejects.toMatchObject({ status: 400 });
  });
});

describe('execHttp', () => {
  verified.it('streams the exec frames in an octet-stream body ending in [3, code]', async () => {
    const res = await call('POST', `/v1/sprites/${box}/exec`, { query: execQuery(['sh', '-c', 'echo via http; exit 3']) });
    expect(res.status).toBe(200);
    expect(res.contentType).toContain('application/octet-stream');
    const b = res.bytes;
    expect(b[0]).toBe(1);
    expect(Buffer.from(b.subarray(1, b.length - 2)).toString()).toBe('via http\n');
    expect(Array.from(b.subarray(b.length - 2))).toEqual([3, 3]);
  });

  verified.it('takes stdin from the request body when stdin=true', async () => {
    const res = await call('POST', `/v1/sprites/${box}/exec`, { query: execQuery(['cat'], { stdin: true }), body: new TextEncoder().encode('piped') });
    expect(res.status).toBe(200);
    const b = res.bytes;
    expect(Buffer.from(b.subarray(1, b.length - 2)).toString()).toBe('piped');
    expect(Array.from(b.subarray(b.length - 2))).toEqual([3, 0]);
  });
});

describe('probeExec', () => {
  verified.it('answers HEAD with a Sprite-Version header', async () => {
    const res = await call('HEAD', `/v1/sprites/${box}/exec`);
    expect(res.status).toBe(200);
    expect(res.headers.get('sprite-version')).toBeTruthy();
  });
});

describe('listExecSessions', () => {
  verified.it('lists a running session with string id and RFC 3339 times; it is gone once it exits', async () => {
    const conn = await openExec(target(), box, ['sleep', '30'], { tty: true, detachable: true });
    const info = (await conn.waitFor((f) => f.message === 'sessionInfo')).json;
    const list = await call('GET', `/v1/sprites/${box}/exec`);
    expect(list.status).toBe(200);
    const mine = list.json.sessions.find((s: { id: string }) => s.id === info.session_id);
    expect(mine).toBeDefined();
    expect(mine.tty).toBe(true);
    expect(Number.isNaN(Date.parse(mine.created))).toBe(false);
    const kill = await call('POST', `/v1/sprites/${box}/exec/${info.session_id}/kill`, { query: { signal: 'KILL', timeout: '5s' } });
    expect(kill.status).toBe(200);
    await conn.closed;
    const after = await call('GET', `/v1/sprites/${box}/exec`);
    expect(after.json.sessions.some((s: { id: string }) => s.id === info.session_id)).toBe(false);
  });
});

describe('getExecSession', () => {
  emulatorOnly.it('returns a live session and answers 404 text for an unknown one', async () => {
    const conn = await openExec(target(), box, ['sleep', '30'], { tty: true, detachable: true });
    const info = (await conn.waitFor((f) => f.message === 'sessionInfo')).json;
    const live = await call('GET', `/v1/sprites/${box}/exec/${info.session_id}`);
    expect(live.status).toBe(200);
    expect(live.json.id).toBe(info.session_id);
    await call('POST', `/v1/sprites/${box}/exec/${info.session_id}/kill`, { query: { signal: 'KILL' } });
    await conn.closed;
    expect((await call('GET', `/v1/sprites/${box}/exec/${info.session_id}`)).status).toBe(404);
  });

  verified.it('answers 404 for a session that does not exist', async () => {
    const res = await call('GET', `/v1/sprites/${box}/exec/999999`);
    expect(res.status).toBe(404);
  });
});

describe('killExecSession', () => {
  verified.it('signals the session and streams signal → exited → complete; the socket sees the exit', async () => {
    const conn = await openExec(target(), box, ['sleep', '30']);
    const info = (await conn.waitFor((f) => f.message === 'sessionInfo')).json;
    const kill = await call('POST', `/v1/sprites/${box}/exec/${info.session_id}/kill`, { query: { signal: 'TERM', timeout: '5s' } });
    expect(kill.status).toBe(200);
    const types = kill.lines!.map((l) => l.type);
    expect(types[0]).toBe('signal');
    expect(types.at(-1)).toBe('complete');
    expect(kill.lines![0].signal).toBe('SIGTERM');
    const { code } = await conn.closed;
    const rec = summarizeExec(conn, code);
    expect(rec.violation).toBeUndefined();
    expect(rec.exitCode).not.toBe(0);
    expect(rec.exitCode).toBe(kill.lines!.at(-1).exit_code);
  });

  verified.it('answers 404 for an unknown session', async () => {
    expect((await call('POST', `/v1/sprites/${box}/exec/999999/kill`)).status).toBe(404);
  });
});

describe('attachExecSession', () => {
  // The shell engine delivers output when a script ends (shell.ts), so scrollback of a live session is not
  // observable here; the order session_info → exit, and the exit reaching every attachment, are.
  verified.it('attaches to a detachable session: session_info first (not the owner), then the exit', async () => {
    const owner = await openExec(target(), box, ['sleep', '30'], { tty: true, detachable: true });
    const info = (await owner.waitFor((f) => f.message === 'sessionInfo')).json;
    const attached = await connectWs(target(), `/v1/sprites/${box}/exec/${info.session_id}`, {
      output: 'attachExecSessionOutput',
      query: { stdin: true },
      binaryMessages: execBinaryMessages,
    });
    const first = await attached.waitFor(() => true);
    expect(first.message).toBe('sessionInfo');
    expect(first.json.session_id).toBe(info.session_id);
    expect(first.json.tty).toBe(true);
    expect(first.json.is_owner).toBe(false);
    const kill = await call('POST', `/v1/sprites/${box}/exec/${info.session_id}/kill`, { query: { signal: 'KILL', timeout: '5s' } });
    expect(kill.status).toBe(200);
    const exit = await attached.waitFor((f) => f.message === 'exit');
    expect(exit.json.exit_code).not.toBe(0);
    const [ownerClose, attachedClose] = await Promise.all([owner.closed, attached.closed]);
    expect(attachedClose.code).not.toBe(1000);
    expect(ownerClose.code).not.toBe(1000);
    expect(attached.violation).toBeUndefined();
    expect(owner.violation).toBeUndefined();
  });

  verified.it('fails the handshake with 404 for a session that does not exist', async () => {
    await expect(connectWs(target(), `/v1/sprites/${box}/exec/999999`, { output: 'attachExecSessionOutput', query: { stdin: true } })).rejects.toMatchObject({
      status: 404,
    });
  });
});
