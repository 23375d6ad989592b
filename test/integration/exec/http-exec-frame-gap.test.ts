/**
 * Who pays the HTTP exec frame gap (exec/frames.ts `frameGapFor`, docs/limits.md): requests whose
 * User-Agent is a JavaScript client reading through fetch (Node's fetch sends `node`, the JS SDK `sprites-js/…`)
 * get each frame apart; any other client gets the body at once. Most servers here use a gap far longer than any
 * test, so a held frame shows as a first read that ends at the output frame, and a body that arrives whole shows
 * the gap was not applied; one uses the default gap, read the way the JS SDK's `execFileHTTP` reads.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startTestServer, TOKEN } from '../../support/server.ts';
import type { RunningServer } from '../../../src/server/server.ts';

const HUGE_GAP_MS = 10 * 60_000;
const OUTPUT_FRAME = Buffer.from('\x01hi\n');
const BODY = Buffer.concat([OUTPUT_FRAME, Buffer.from([3, 0])]);

/** POSTs an HTTP exec of `echo hi`; returns the first read of the body, and the whole body unless `firstOnly`. */
async function exec(base: string, headers: Record<string, string>, firstOnly = false) {
  const res = await fetch(`${base}/v1/sprites/box/exec?cmd=echo&cmd=hi`, { method: 'POST', headers: { Authorization: `Bearer ${TOKEN}`, ...headers } });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const first = await reader.read();
  if (firstOnly) {
    await reader.cancel();
    return { first: Buffer.from(first.value!), body: undefined };
  }
  const parts = [Buffer.from(first.value ?? [])];
  for (let r = await reader.read(); !r.done; r = await reader.read()) parts.push(Buffer.from(r.value));
  return { first: parts[0], body: Buffer.concat(parts) };
}

describe('HTTP exec frame gap by User-Agent', () => {
  let fetchOnly: RunningServer;
  let everyone: RunningServer;
  beforeAll(async () => {
    fetchOnly = await startTestServer('shell', { token: TOKEN, httpExecFrameGapMs: HUGE_GAP_MS });
    everyone = await startTestServer('shell', { token: TOKEN, httpExecFrameGapMs: HUGE_GAP_MS, httpExecFrameGapClients: 'all' });
    await api(fetchOnly.url)('POST', '/v1/sprites', { name: 'box' });
    await api(everyone.url)('POST', '/v1/sprites', { name: 'box' });
  });
  afterAll(async () => {
    await fetchOnly.close();
    await everyone.close();
  });

  it.each(['Go-http-client/1.1', 'sprites-go-sdk/1.0', 'python-httpx/0.27.0', 'curl/8.5.0'])('a %s request gets the whole body without the gap', async (ua) => {
    const { body } = await exec(fetchOnly.url, { 'User-Agent': ua });
    expect(body).toEqual(BODY);
  });

  it('a request from Node\'s fetch (User-Agent "node") gets the output frame alone, the exit frame held back', async () => {
    const { first } = await exec(fetchOnly.url, {}, true);
    expect(first).toEqual(OUTPUT_FRAME);
  });

  it.each(['Deno/2.1.4', 'Bun/1.1.38', 'undici', 'sprites-js/0.2.0', 'sprites-js/0.2.0 (interactive=false; parent=node)'])('so does %s', async (ua) => {
    const { first } = await exec(fetchOnly.url, { 'User-Agent': ua }, true);
    expect(first).toEqual(OUTPUT_FRAME);
  });

  it('--http-exec-frame-gap-clients all holds the exit frame for any client', async () => {
    const { first } = await exec(everyone.url, { 'User-Agent': 'curl/8.5.0' }, true);
    expect(first).toEqual(OUTPUT_FRAME);
  });
});

/**
 * Reads an HTTP exec body as `execFileHTTP` of the JS SDK does: each fetch read is exactly one frame (its first byte
 * the stream id), an exit frame has one byte of payload, anything else is an error, and a body without an exit frame
 * is one too.
 */
async function execFileHttpStyle(base: string, userAgent: string, argv: string[]) {
  const q = new URLSearchParams();
  for (const a of argv) q.append('cmd', a);
  q.set('path', argv[0]!);
  const res = await fetch(`${base}/v1/sprites/box/exec?${q}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/octet-stream', 'User-Agent': userAgent },
  });
  expect(res.status).toBe(200);
  const out = { stdout: '', stderr: '', exitCode: -1 };
  const reader = res.body!.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) {
    const payload = Buffer.from(r.value.subarray(1));
    if (r.value[0] === 1) out.stdout += payload;
    else if (r.value[0] === 2) out.stderr += payload;
    else if (r.value[0] === 3 && payload.length === 1) out.exitCode = payload[0]!;
    else throw new Error(`a read that is not one frame: ${JSON.stringify(Buffer.from(r.value).toString('latin1'))}`);
  }
  if (out.exitCode < 0) throw new Error('HTTP exec response did not include an exit frame');
  return out;
}

describe('HTTP exec with the default frame gap, read as the JS SDK reads it', () => {
  let srv: RunningServer;
  beforeAll(async () => {
    srv = await startTestServer('shell', { token: TOKEN });
    await api(srv.url)('POST', '/v1/sprites', { name: 'box' });
  });
  afterAll(() => srv.close());

  // The gap is time: a client whose event loop stalls longer than it (a machine running many test files at once) can
  // read two frames in one go, as the JS SDK would. A run of commands shows the gap holds in the common case without
  // making the test a measure of the machine's load.
  it('30 commands in a row from sprites-js/0.2.0 each come back whole: stdout, stderr and exit code', async () => {
    const script = ['sh', '-c', 'echo hi; echo err >&2; exit 3'];
    for (let i = 0; i < 30; i++) {
      expect(await execFileHttpStyle(srv.url, 'sprites-js/0.2.0 (interactive=false; parent=node)', script), `command ${i}`).toEqual({ stdout: 'hi\n', stderr: 'err\n', exitCode: 3 });
    }
  }, 120_000);
});
