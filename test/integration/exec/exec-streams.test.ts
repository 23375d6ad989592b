/**
 * Exec stdin and output never take spritzer down or stall other clients. Each attack runs against a server on
 * port 0 that already holds an earlier sprite with a file; each test checks that `/_spritzer/health` answered while
 * the attack ran and that the earlier sprite and file are intact afterwards. No wall-clock bounds: "answered
 * while it ran" is an order of events (a health answer arrived before the exec's exit), timings live in
 * bench/exec-stream.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomFillSync } from 'node:crypto';
import net from 'node:net';
import { WebSocket } from 'ws';
import { api, execQuery, memoryMachines, startTestServer, TOKEN } from '../../support/server.ts';
import type { RunningServer } from '../../../src/server/server.ts';
import { createEngine } from '../../../src/server/machines/memory/engines.ts';
import { SystemClock } from '../../../src/server/core/clock.ts';
import { LATE_STDIN_MESSAGE, stdinTooLargeMessage } from '../../../src/server/machines/memory/shell/stdin-buffer.ts';
import { DEFAULT_EXEC_STREAM_LIMITS } from '../../../src/server/config/exec-limits.ts';
import { CloseCode } from '../../../src/protocol/close-codes.ts';

const MiB = 1024 * 1024;
const CHUNK = DEFAULT_EXEC_STREAM_LIMITS.outputChunkBytes;
const EARLIER_FILE = '/home/sprite/keep.txt';
const EARLIER_TEXT = 'still here\n';

/**
 * Probes `/_spritzer/health` back to back until stopped; records when each answer arrived, its status and its
 * latency (printed under `label` when stopped, never asserted: bench/health-under-attack.ts measures it).
 */
function healthProbe(url: string, label = 'the attack') {
  const answers: Array<{ at: number; status: number; ms: number }> = [];
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const t0 = performance.now();
      const res = await fetch(`${url}/_spritzer/health`);
      await res.arrayBuffer();
      answers.push({ at: performance.now(), status: res.status, ms: performance.now() - t0 });
    }
  })();
  return {
    answers,
    /** Stops probing after the request in flight; prints the latencies; resolves with every answer. */
    async stop() {
      stopped = true;
      await loop;
      const ms = answers.map((a) => a.ms).sort((a, b) => a - b);
      console.log(`health during ${label}: ${ms.length} answers, median ${(ms[Math.floor(ms.length / 2)] ?? NaN).toFixed(1)} ms, max ${(ms.at(-1) ?? NaN).toFixed(1)} ms`);
      return answers;
    },
  };
}

/** What one raw WebSocket exec produced: stdout/stderr bytes, frame sizes, exit code, close code, when it exited. */
interface RawExec {
  stdout: Buffer;
  stderr: Buffer;
  frames: number[];
  exitCode: number | null;
  exitAt: number;
  firstOutputAt: number;
  closeCode: number;
  closeReason: string;
}

/**
 * Runs one exec over WebSocket, collecting bytes exactly; `send` runs once the socket is open. The client masks
 * with a zero key, which `ws` skips, so a large frame starts leaving at once (as from the Go and Python SDKs; a
 * JavaScript client masking 64 MiB first is waited for by `--stdin-wait`, docs/fidelity.md).
 */
function rawExec(url: string, sprite: string, query: string, send?: (ws: WebSocket) => void): Promise<RawExec> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/v1/sprites/${sprite}/exec?${query}`, {
      headers: { Authorization: `Bearer ${TOKEN}` },
      maxPayload: 256 * MiB,
      generateMask: (mask) => void mask.fill(0),
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const rec: RawExec = { stdout: Buffer.alloc(0), stderr: Buffer.alloc(0), frames: [], exitCode: null, exitAt: 0, firstOutputAt: 0, closeCode: 0, closeReason: '' };
    ws.on('open', () => send?.(ws));
    ws.on('message', (data: Buffer, isBinary) => {
      if (!isBinary) return;
      rec.frames.push(data.length);
      if (data[0] === 1 || data[0] === 2) {
        rec.firstOutputAt ||= performance.now();
        (data[0] === 1 ? out : err).push(data.subarray(1));
      } else if (data[0] === 3) {
        rec.exitCode = data[1]!;
        rec.exitAt = performance.now();
      }
    });
    ws.on('close', (code, reason) => {
      Object.assign(rec, { stdout: Buffer.concat(out), stderr: Buffer.concat(err), closeCode: code, closeReason: reason.toString() });
      resolve(rec);
    });
    ws.on('error', (e) => {
      if (!/Max payload|ECONNRESET|EPIPE/.test(e.message)) reject(e);
    });
  });
}

/**
 * Opens an exec WebSocket by hand over TCP, so that a test can send one frame in pieces, as a slow client does.
 * `write` sends raw bytes; `frameHeader` builds a client frame header (zero mask key); `result` resolves with what
 * the server sent once it closes.
 */
async function handMadeExec(url: string, sprite: string, query: string) {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  await new Promise((r) => socket.once('connect', r));
  socket.write(
    `GET /v1/sprites/${sprite}/exec?${query} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      `Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nAuthorization: Bearer ${TOKEN}\r\n\r\n`,
  );
  let buf = Buffer.alloc(0);
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  let exitCode: number | null = null;
  let upgraded = false;
  const result = new Promise<{ stdout: Buffer; stderr: Buffer; exitCode: number | null }>((resolve) => {
    socket.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      if (!upgraded) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        expect(buf.subarray(0, 12).toString()).toBe('HTTP/1.1 101');
        buf = buf.subarray(end + 4);
        upgraded = true;
      }
      // Server frames are unmasked: [FIN|opcode][len][ext len][payload].
      for (;;) {
        if (buf.length < 2) return;
        let len = buf[1]! & 0x7f;
        let at = 2;
        if (len === 126) [len, at] = buf.length >= 4 ? [buf.readUInt16BE(2), 4] : [-1, 0];
        else if (len === 127) [len, at] = buf.length >= 10 ? [Number(buf.readBigUInt64BE(2)), 10] : [-1, 0];
        if (len < 0 || buf.length < at + len) return;
        const opcode = buf[0]! & 0x0f;
        const payload = buf.subarray(at, at + len);
        buf = buf.subarray(at + len);
        if (opcode === 2 && payload[0] === 1) out.push(payload.subarray(1));
        else if (opcode === 2 && payload[0] === 2) err.push(payload.subarray(1));
        else if (opcode === 2 && payload[0] === 3) exitCode = payload[1]!;
        else if (opcode === 8) socket.end();
      }
    });
    socket.on('close', () => resolve({ stdout: Buffer.concat(out), stderr: Buffer.concat(err), exitCode }));
  });
  return {
    write: (bytes: Uint8Array) => socket.write(bytes),
    frameHeader(length: number): Buffer {
      const ext = length < 126 ? 0 : length < 65536 ? 2 : 8;
      const header = Buffer.alloc(2 + ext + 4); // the mask key stays 0
      header[0] = 0x82; // FIN, binary
      header[1] = 0x80 | (ext === 0 ? length : ext === 2 ? 126 : 127);
      if (ext === 2) header.writeUInt16BE(length, 2);
      if (ext === 8) header.writeBigUInt64BE(BigInt(length), 2);
      return header;
    },
    result,
  };
}

/** A stdin frame `[0]…` carrying `payload`. */
function stdinFrame(payload: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from([0]), payload]);
}

/** Printable pseudo-random bytes (text engines keep printable bytes as they are). */
function printable(size: number): Buffer {
  const data = Buffer.alloc(size);
  randomFillSync(data);
  for (let i = 0; i < size; i++) data[i] = 0x41 + (data[i]! % 26);
  return data;
}

/** Starts a shell-engine server with an earlier sprite and file, the way every attack finds it. */
async function serverWithEarlierState(overrides: Parameters<typeof startTestServer>[1] = {}) {
  const srv = await startTestServer('shell', { token: TOKEN, ...overrides });
  const call = api(srv.url);
  expect((await call('POST', '/v1/sprites', { name: 'earlier' })).status).toBe(201);
  expect((await call('PUT', `/v1/sprites/earlier/fs/write?path=${encodeURIComponent(EARLIER_FILE)}`, EARLIER_TEXT)).status).toBe(200);
  expect((await call('POST', '/v1/sprites', { name: 'box' })).status).toBe(201);
  return { srv, call };
}

/** The earlier sprite and its file survived, and the server still answers health. */
async function expectEarlierStateIntact(srv: RunningServer, call: ReturnType<typeof api>): Promise<void> {
  expect((await fetch(`${srv.url}/_spritzer/health`)).status).toBe(200);
  expect((await call('GET', '/v1/sprites/earlier')).status).toBe(200);
  const file = await call('GET', `/v1/sprites/earlier/fs/read?path=${encodeURIComponent(EARLIER_FILE)}`);
  expect(file.status).toBe(200);
  expect(file.text).toBe(EARLIER_TEXT);
}

/**
 * A server whose stdin limit is `maxStdinBytes` (engine and transport agree). Its stdin grace (1 s) covers a
 * client's first frame arriving late on a busy machine: with 30 ms, `wc -c` sometimes started before the flood's
 * first frame and printed `0` (no test here is about the grace).
 */
function smallStdinServer(maxStdinBytes: number) {
  const clock = new SystemClock();
  return serverWithEarlierState({
    clock,
    machines: memoryMachines(createEngine('shell', { clock, stdinGraceMs: 1000, maxStdinBytes }), clock),
    execLimits: { maxStdinBytes },
  });
}

describe('exec stdin is bounded and never dropped silently', () => {
  describe('with the default 64 MiB limit', () => {
    let srv: RunningServer;
    let call: ReturnType<typeof api>;
    beforeAll(async () => ({ srv, call } = await serverWithEarlierState()), 60_000);
    afterAll(() => srv?.close());

    it('one 64 MiB stdin frame reaches `wc -c` whole, and health answers while it arrives', async () => {
      // Its own server, with a grace period that covers this client's time to its first byte: here the client
      // shares the server's event loop on a busy machine. What is tested is the size of the frame; the slow
      // arrival itself is the next test, with the short grace.
      const clock = new SystemClock();
      const own = await serverWithEarlierState({ clock, machines: memoryMachines(createEngine('shell', { clock, stdinGraceMs: 500 }), clock) });
      try {
        const frame = stdinFrame(Buffer.alloc(64 * MiB, 0x61));
        const probe = healthProbe(own.srv.url, 'one 64 MiB stdin frame');
        const rec = await rawExec(own.srv.url, 'box', execQuery(['wc', '-c'], { stdin: true }), (ws) => {
          ws.send(frame);
          ws.send(Buffer.from([4]));
        });
        const answers = await probe.stop();
        expect(rec.stderr.toString()).toBe('');
        expect(rec.stdout.toString().trim()).toBe(String(64 * MiB));
        expect(rec.exitCode).toBe(0);
        expect(answers.filter((a) => a.at < rec.exitAt).length).toBeGreaterThan(0);
        expect(answers.every((a) => a.status === 200)).toBe(true);
        await expectEarlierStateIntact(own.srv, own.call);
      } finally {
        await own.srv.close();
      }
    }, 180_000);

    it('a stdin frame that arrives slowly, in pieces, is waited for: the command starts with all of it', async () => {
      const exec = await handMadeExec(srv.url, 'box', execQuery(['wc', '-c'], { stdin: true }));
      const payload = stdinFrame(Buffer.alloc(4 * MiB, 0x61));
      exec.write(exec.frameHeader(payload.length));
      exec.write(payload.subarray(0, MiB));
      // Far longer than the stdin grace period (30 ms here), well under the 1 s idle rule.
      await new Promise((r) => setTimeout(r, 300));
      exec.write(payload.subarray(MiB));
      exec.write(Buffer.concat([exec.frameHeader(1), Buffer.from([4])]));
      const r = await exec.result;
      expect(r.stderr.toString()).toBe('');
      expect(r.stdout.toString().trim()).toBe(String(4 * MiB));
      expect(r.exitCode).toBe(0);
      await expectEarlierStateIntact(srv, call);
    }, 60_000);

    it('HTTP exec with a 64 MiB body gives `wc -c` all of it', async () => {
      const res = await call('POST', `/v1/sprites/box/exec?${execQuery(['wc', '-c'], { stdin: true })}`, Buffer.alloc(64 * MiB, 0x62));
      expect(res.status).toBe(200);
      const body = Buffer.from(res.text, 'latin1');
      expect(body.subarray(-2)).toEqual(Buffer.from([3, 0]));
      expect(res.text).toContain(String(64 * MiB));
      await expectEarlierStateIntact(srv, call);
    }, 180_000);

    it('stdin sent after the command started is reported on stderr, not dropped silently', async () => {
      const rec = await rawExec(srv.url, 'box', execQuery(['sh', '-c', 'sleep 1; echo done'], { stdin: true }), (ws) => {
        ws.send(Buffer.from([4]));
        setTimeout(() => ws.send(stdinFrame(Buffer.from('too late\n'))), 100);
      });
      expect(rec.stdout.toString()).toBe('done\n');
      expect(rec.stderr.toString()).toBe(LATE_STDIN_MESSAGE);
      expect(rec.exitCode).toBe(0);
      await expectEarlierStateIntact(srv, call);
    });
  });

  describe('past the limit (a server with a 1 MiB limit)', () => {
    const LIMIT = 1 * MiB;
    let srv: RunningServer;
    let call: ReturnType<typeof api>;
    beforeAll(async () => ({ srv, call } = await smallStdinServer(LIMIT)), 60_000);
    afterAll(() => srv?.close());

    it('exactly the limit still runs', async () => {
      const rec = await rawExec(srv.url, 'box', execQuery(['wc', '-c'], { stdin: true }), (ws) => {
        ws.send(stdinFrame(Buffer.alloc(LIMIT, 0x63)));
        ws.send(Buffer.from([4]));
      });
      expect(rec.stdout.toString().trim()).toBe(String(LIMIT));
      expect(rec.exitCode).toBe(0);
      await expectEarlierStateIntact(srv, call);
    });

    it('a stream of stdin frames that never ends fails the command loudly at the limit: exit 126, a message, close 1000', async () => {
      const probe = healthProbe(srv.url, 'an endless stream of stdin frames');
      let sent = 0;
      const rec = await rawExec(srv.url, 'box', execQuery(['wc', '-c'], { stdin: true }), (ws) => {
        const flood = () => {
          if (ws.readyState !== ws.OPEN) return;
          ws.send(stdinFrame(Buffer.alloc(128 * 1024, 0x64)));
          sent++;
          setImmediate(flood);
        };
        flood();
      });
      const answers = await probe.stop();
      expect(rec.stdout.length).toBe(0);
      expect(rec.stderr.toString()).toBe(stdinTooLargeMessage(LIMIT));
      expect(rec.exitCode).toBe(126);
      expect(rec.closeCode).toBe(CloseCode.Normal);
      expect(sent).toBeGreaterThan(LIMIT / (128 * 1024));
      expect(answers.length).toBeGreaterThan(0);
      await expectEarlierStateIntact(srv, call);
    });

    it('one frame larger than the limit closes the socket with 1009 and runs nothing', async () => {
      const rec = await rawExec(srv.url, 'box', execQuery(['sh', '-c', 'cat > /home/sprite/big.txt'], { stdin: true }), (ws) => {
        ws.send(stdinFrame(Buffer.alloc(LIMIT + 1, 0x65)));
        ws.send(Buffer.from([4]));
      });
      expect(rec.closeCode).toBe(CloseCode.MessageTooBig);
      expect(rec.exitCode).toBeNull();
      expect((await call('GET', `/v1/sprites/box/fs/read?path=${encodeURIComponent('/home/sprite/big.txt')}`)).status).toBe(404);
      await expectEarlierStateIntact(srv, call);
    });

    it('HTTP exec answers 413 in the JSON envelope for a body over the limit, and starts nothing', async () => {
      const ok = await call('POST', `/v1/sprites/box/exec?${execQuery(['wc', '-c'], { stdin: true })}`, Buffer.alloc(LIMIT, 0x66));
      expect(ok.status).toBe(200);
      expect(ok.text).toContain(String(LIMIT));
      const res = await call('POST', `/v1/sprites/box/exec?${execQuery(['sh', '-c', 'cat > /home/sprite/http.txt'], { stdin: true })}`, Buffer.alloc(LIMIT + 1, 0x66));
      expect(res.status).toBe(413);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.json).toEqual({ error: 'payload_too_large', message: expect.stringContaining(`${LIMIT} bytes`) });
      expect((await call('GET', `/v1/sprites/box/fs/read?path=${encodeURIComponent('/home/sprite/http.txt')}`)).status).toBe(404);
      expect((await call('GET', '/v1/sprites/box/exec')).json).toMatchObject({ count: 0 });
      await expectEarlierStateIntact(srv, call);
    });
  });
});

describe('exec output streams in bounded chunks without stalling other clients', () => {
  const SIZE = 8 * MiB;
  let srv: RunningServer;
  let call: ReturnType<typeof api>;
  let data: Buffer;
  beforeAll(async () => {
    ({ srv, call } = await serverWithEarlierState());
    data = printable(SIZE);
    expect((await call('PUT', `/v1/sprites/box/fs/write?path=${encodeURIComponent('/home/sprite/big.bin')}`, data)).status).toBe(200);
  }, 60_000);
  afterAll(() => srv?.close());

  it('`cat` of an 8 MiB file arrives byte for byte in frames of at most 64 KiB, and health answers between them', async () => {
    const probe = healthProbe(srv.url, 'exec cat of an 8 MiB file');
    const rec = await rawExec(srv.url, 'box', execQuery(['cat', '/home/sprite/big.bin']));
    const answers = await probe.stop();
    expect(rec.exitCode).toBe(0);
    expect(rec.closeCode).toBe(CloseCode.Normal);
    expect(rec.stdout.equals(data)).toBe(true);
    expect(Math.max(...rec.frames)).toBeLessThanOrEqual(CHUNK + 1);
    expect(rec.frames.length).toBeGreaterThanOrEqual(SIZE / CHUNK);
    // Other clients were served while the output streamed, not only before or after it.
    expect(answers.some((a) => a.at > rec.firstOutputAt && a.at < rec.exitAt)).toBe(true);
    await expectEarlierStateIntact(srv, call);
  }, 120_000);

  it('a client that stops reading for a while still gets every byte, in order, once it reads again', async () => {
    let resumed = false;
    const rec = await rawExec(srv.url, 'box', execQuery(['cat', '/home/sprite/big.bin']), (ws) => {
      ws.pause();
      // The server must keep serving others while this reader holds back its output.
      void (async () => {
        for (let i = 0; i < 5; i++) expect((await fetch(`${srv.url}/_spritzer/health`)).status).toBe(200);
        resumed = true;
        ws.resume();
      })();
    });
    expect(resumed).toBe(true);
    expect(rec.exitCode).toBe(0);
    expect(rec.stdout.equals(data)).toBe(true);
    await expectEarlierStateIntact(srv, call);
  }, 120_000);

  it('a client that never reads does not stop other clients, and can vanish without a close frame', async () => {
    const ws = new WebSocket(`${srv.url.replace(/^http/, 'ws')}/v1/sprites/box/exec?${execQuery(['cat', '/home/sprite/big.bin'])}`, {
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    ws.on('error', () => {});
    await new Promise((r) => ws.once('open', r));
    ws.pause();
    const other = await rawExec(srv.url, 'box', execQuery(['echo', 'still serving']));
    expect(other.stdout.toString()).toBe('still serving\n');
    expect(other.exitCode).toBe(0);
    ws.terminate();
    await expectEarlierStateIntact(srv, call);
  }, 120_000);

  it('HTTP exec `cat` of the same file is framed in chunks of at most 64 KiB and ends with [3, 0]', async () => {
    const res = await fetch(`${srv.url}/v1/sprites/box/exec?${execQuery(['cat', '/home/sprite/big.bin'])}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    const body = Buffer.from(await res.arrayBuffer());
    expect(res.status).toBe(200);
    expect(body.subarray(-2)).toEqual(Buffer.from([3, 0]));
    // Frames carry no length: walk them knowing each full frame is [1] + 64 KiB.
    const parts: Buffer[] = [];
    for (let at = 0; at < body.length - 2; at += CHUNK + 1) {
      expect(body[at]).toBe(1);
      parts.push(body.subarray(at + 1, Math.min(at + 1 + CHUNK, body.length - 2)));
    }
    expect(Buffer.concat(parts).equals(data)).toBe(true);
    await expectEarlierStateIntact(srv, call);
  }, 120_000);
});

describe('a client whose first stdin byte comes late still gets it all', () => {
  let srv: RunningServer;
  let call: ReturnType<typeof api>;
  beforeAll(async () => ({ srv, call } = await serverWithEarlierState()), 60_000);
  afterAll(() => srv?.close());

  it('waiting 300 ms (10× the 30 ms grace) before 1 MiB + EOF on `wc -c` gives the right count', async () => {
    const rec = await rawExec(srv.url, 'box', execQuery(['wc', '-c'], { stdin: true }), (ws) => {
      setTimeout(() => {
        ws.send(stdinFrame(Buffer.alloc(MiB, 0x61)));
        ws.send(Buffer.from([4]));
      }, 300);
    });
    expect(rec.stderr.toString()).toBe('');
    expect(rec.stdout.toString().trim()).toBe(String(MiB));
    expect(rec.exitCode).toBe(0);
    await expectEarlierStateIntact(srv, call);
  });

  it('a command that cannot read stdin still starts after the short grace (the JS SDK exec() never sends EOF)', async () => {
    const rec = await rawExec(srv.url, 'box', execQuery(['echo', 'hi'], { stdin: true }));
    expect(rec.stdout.toString()).toBe('hi\n');
    expect(rec.exitCode).toBe(0);
  });

  it('stdin sent to a reader after it started is reported on stderr and the exit is 1, not 0', async () => {
    const rec = await rawExec(srv.url, 'box', execQuery(['sh', '-c', 'sleep 1; wc -c'], { stdin: true }), (ws) => {
      ws.send(stdinFrame(Buffer.from('in time\n')));
      ws.send(Buffer.from([4]));
      setTimeout(() => ws.send(stdinFrame(Buffer.from('too late\n'))), 100);
    });
    expect(rec.stdout.toString().trim()).toBe('8');
    expect(rec.stderr.toString()).toBe(LATE_STDIN_MESSAGE);
    expect(rec.exitCode).toBe(1);
    await expectEarlierStateIntact(srv, call);
  });
});
