/**
 * Exec WebSocket frame fuzzing: a non-TTY `cat` gets valid stdin frames mixed with malformed
 * client messages (unknown stream ids, empty frames, huge frames, client stdout/stderr/exit frames, text where
 * binary is expected, resize with negative or absurd sizes, unknown signals, JSON of the wrong shape). The rule
 * (docs/wire.md "Malformed client messages", as the in-VM server's reader does): every malformed message is
 * ignored and the session goes on, so `cat` echoes exactly the valid stdin, exits 0, the socket closes 1000, every
 * server frame validates against spec/asyncapi.yaml, no session is left behind, no unhandled rejection happens.
 * Fixed seeds; failing seeds found once are kept in REGRESSIONS and replayed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { WebSocket } from 'ws';
import { api, execQuery, memoryMachines, startTestServer, TOKEN } from '../support/server.ts';
import type { RunningServer } from '../../src/server/server.ts';
import { createEngine } from '../../src/server/machines/memory/engines.ts';
import { SystemClock } from '../../src/server/core/clock.ts';
import { normalizeSignalName } from '../../src/protocol/signals.ts';
import { specValidator } from '../conformance/support/spec-validator.ts';

/** One client message: binary bytes or text, and whether it is valid stdin (its payload must come back). */
type Msg = { kind: 'stdin'; payload: Uint8Array } | { kind: 'junk-binary'; bytes: Uint8Array; why: string } | { kind: 'junk-text'; text: string; why: string };

const stdinMsg: fc.Arbitrary<Msg> = fc.uint8Array({ maxLength: 300 }).map((payload) => ({ kind: 'stdin', payload }));

const unknownSignal = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('SIGNOPE', '', 'SIG', '9', '-1', 'KILLL', 'sigterm ', 'SIGSIGTERM')).filter((s) => normalizeSignalName(s) === null);

const junkMsg: fc.Arbitrary<Msg> = fc.oneof(
  fc.tuple(fc.integer({ min: 5, max: 255 }), fc.uint8Array({ maxLength: 50 })).map(([id, p]) => ({ kind: 'junk-binary' as const, bytes: Uint8Array.of(id, ...p), why: `unknown stream id ${id}` })),
  fc.constant<Msg>({ kind: 'junk-binary', bytes: new Uint8Array(0), why: 'empty frame' }),
  fc.constantFrom(1, 2, 3).chain((id) => fc.uint8Array({ maxLength: 20 }).map((p) => ({ kind: 'junk-binary' as const, bytes: Uint8Array.of(id, ...p), why: `client frame with server stream id ${id}` }))),
  fc.constantFrom(100, 250).map((kib) => ({ kind: 'junk-binary' as const, bytes: new Uint8Array(kib * 1024 + 1).fill(7), why: `huge frame (${kib} KiB, stream id 7)` })),
  fc.string({ maxLength: 40 }).map((text) => ({ kind: 'junk-text' as const, text, why: 'text where binary is expected' })),
  fc.tuple(fc.integer({ min: -70000, max: 0 }), fc.integer({ min: -70000, max: 70000 })).map(([c, r]) => ({ kind: 'junk-text' as const, text: JSON.stringify({ type: 'resize', cols: c, rows: r }), why: 'resize with a size out of range' })),
  fc.constantFrom(65536, 1e12, 1.5, Number.MAX_SAFE_INTEGER).map((n) => ({ kind: 'junk-text' as const, text: JSON.stringify({ type: 'resize', cols: n, rows: n }), why: 'resize too large or fractional' })),
  fc.constantFrom('{"type":"resize","cols":"80","rows":null}', '{"type":"resize"}', '{"type":"resize","cols":-1,"rows":-1}').map((text) => ({ kind: 'junk-text' as const, text, why: 'resize of the wrong shape' })),
  unknownSignal.map((s) => ({ kind: 'junk-text' as const, text: JSON.stringify({ type: 'signal', signal: s }), why: `unknown signal ${JSON.stringify(s)}` })),
  fc.constantFrom('{"type":"signal"}', '{"type":"signal","signal":15}', '{"type":"nope"}', '[]', 'null', '1', '"resize"', '{', '{"type":"exit","exit_code":0}', '{"__proto__":{"type":"signal"}}').map((text) => ({ kind: 'junk-text' as const, text, why: 'JSON of the wrong shape' })),
);

let srv: RunningServer;
const rejections: unknown[] = [];
const onRejection = (reason: unknown) => rejections.push(reason);
const validator = specValidator();

interface Outcome {
  stdout: Buffer;
  stderr: string;
  exit: number | null;
  close: number;
  violations: string[];
}

/** Runs `cat` with stdin, sends `msgs` then EOF as soon as the socket opens; resolves at close. */
function runCat(msgs: Msg[]): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${srv.url.replace(/^http/, 'ws')}/v1/sprites/fx/exec?${execQuery(['cat'], { stdin: true })}`, {
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    const out: Outcome = { stdout: Buffer.alloc(0), stderr: '', exit: null, close: 0, violations: [] };
    ws.on('open', () => {
      for (const m of msgs) {
        if (m.kind === 'stdin') ws.send(Uint8Array.of(0, ...m.payload), { binary: true });
        else if (m.kind === 'junk-binary') ws.send(m.bytes, { binary: true });
        else ws.send(m.text, { binary: false });
      }
      ws.send(Uint8Array.of(4), { binary: true });
    });
    ws.on('message', (raw, isBinary) => {
      const data = raw as Buffer;
      try {
        validator.checkFrame('execCommandOutput', isBinary ? new Uint8Array(data) : data.toString(), isBinary, ['sessionInfo', 'stdout', 'stderr', 'exitFrame', 'exit']);
      } catch (err) {
        out.violations.push((err as Error).message);
      }
      if (!isBinary) return;
      if (data[0] === 1) out.stdout = Buffer.concat([out.stdout, data.subarray(1)]);
      else if (data[0] === 2) out.stderr += data.subarray(1).toString();
      else if (data[0] === 3) out.exit = data[1] ?? null;
    });
    ws.on('close', (code) => {
      out.close = code;
      resolve(out);
    });
    ws.on('error', reject);
  });
}

async function property(msgs: Msg[]): Promise<void> {
  const out = await runCat(msgs);
  const want = Buffer.concat(msgs.filter((m) => m.kind === 'stdin').map((m) => m.payload));
  const junk = msgs.filter((m) => m.kind !== 'stdin').map((m) => (m as { why: string }).why);
  const what = `after ${junk.length} malformed messages (${junk.slice(0, 6).join('; ')})`;
  expect(out.violations, what).toEqual([]);
  expect({ exit: out.exit, close: out.close, stderr: out.stderr }, what).toEqual({ exit: 0, close: 1000, stderr: '' });
  expect(out.stdout.equals(want), `${what}: stdout ${out.stdout.length} bytes, want ${want.length}`).toBe(true);
}

/** Seeds (and paths) that once failed; each is replayed before the random runs. */
const REGRESSIONS: Array<{ seed: number; path?: string; note: string }> = [];

describe('exec WebSocket frame fuzzing: malformed client messages are ignored and the session goes on', () => {
  const arb = fc.array(fc.oneof({ weight: 1, arbitrary: stdinMsg }, { weight: 2, arbitrary: junkMsg }), { maxLength: 12 });

  beforeAll(async () => {
    process.on('unhandledRejection', onRejection);
    const clock = new SystemClock();
    // A long stdin grace: the command starts at the EOF frame, however long the junk before it takes to arrive.
    srv = await startTestServer('shell', { clock, machines: memoryMachines(createEngine('shell', { clock, stdinGraceMs: 10_000 }), clock) });
    expect((await api(srv.url)('POST', '/v1/sprites', { name: 'fx' })).status).toBe(201);
  });
  afterAll(async () => {
    process.off('unhandledRejection', onRejection);
    await srv?.close();
  });

  for (const r of REGRESSIONS) {
    it(`regression: seed ${r.seed} (${r.note})`, async () => {
      await fc.assert(fc.asyncProperty(arb, property), { seed: r.seed, path: r.path, numRuns: 1, endOnFailure: true });
    });
  }

  it('malformed client messages are ignored: cat echoes exactly the valid stdin, exit 0, close 1000', async () => {
    await fc.assert(fc.asyncProperty(arb, property), { seed: 13_505, numRuns: Number(process.env.SPRITZER_FUZZ_RUNS ?? 150), endOnFailure: true });
    const call = api(srv.url);
    expect((await call('GET', '/_spritzer/health')).status).toBe(200);
    // No session outlives its socket: every cat ended.
    for (let i = 0; i < 100 && (await call('GET', '/v1/sprites/fx/exec')).json.count > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect((await call('GET', '/v1/sprites/fx/exec')).json.count).toBe(0);
    expect(rejections).toEqual([]);
  }, 120_000);

  it('a client that sends only malformed messages and never EOF still gets its session_info, and its socket close ends the command', async () => {
    const query = execQuery(['cat'], { stdin: true });
    const ws = new WebSocket(`${srv.url.replace(/^http/, 'ws')}/v1/sprites/fx/exec?${query}`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    const first = await new Promise<string>((resolve) => ws.once('message', (d) => resolve(d.toString())));
    expect(JSON.parse(first)).toMatchObject({ type: 'session_info', tty: false });
    for (const m of fc.sample(junkMsg, { seed: 7, numRuns: 30 })) {
      if (m.kind === 'junk-binary') ws.send(m.bytes, { binary: true });
      else if (m.kind === 'junk-text') ws.send(m.text);
    }
    const call = api(srv.url);
    expect((await call('GET', '/v1/sprites/fx/exec')).json.count).toBe(1);
    ws.close();
    for (let i = 0; i < 100 && (await call('GET', '/v1/sprites/fx/exec')).json.count > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect((await call('GET', '/v1/sprites/fx/exec')).json.count).toBe(0);
  });
});
