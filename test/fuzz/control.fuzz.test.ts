/**
 * Control envelope fuzzing, as test/fuzz/exec-frames.fuzz.test.ts fuzzes exec frames: (1) the parser
 * (`classifyControlText`) on arbitrary text, `control:`-prefixed junk and mutated valid envelopes never throws
 * anything but a ProtocolError, and a valid `op.start` always parses to its op and string args; (2) a live control
 * socket fed a random mix of junk text and binary frames between real exec ops answers every op with the right
 * output and `op.complete`, stays open, and sends only frames that validate against spec/asyncapi.yaml.
 * Fixed seeds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { WebSocket } from 'ws';
import { api, startTestServer, TOKEN } from '../support/server.ts';
import type { RunningServer } from '../../src/server/server.ts';
import { classifyControlText, CONTROL_PREFIX } from '../../src/protocol/control.ts';
import { ProtocolError } from '../../src/protocol/close-codes.ts';
import { specValidator } from '../conformance/support/spec-validator.ts';
import { oddString } from './support.ts';

const RUNS = Number(process.env.SPRITZER_FUZZ_RUNS ?? 300);

const jsonValue = fc.jsonValue({ maxDepth: 3 });
const envelopeJunk: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 60 }),
  oddString,
  fc.string({ maxLength: 60 }).map((s) => CONTROL_PREFIX + s),
  jsonValue.map((v) => CONTROL_PREFIX + JSON.stringify(v)),
  fc.record({ type: fc.oneof(fc.constantFrom('op.start', 'op.ack', 'op.complete', 'op.error', 'release'), fc.string()), op: fc.oneof(fc.string(), jsonValue), id: jsonValue, args: jsonValue }, { requiredKeys: [] }).map((o) => CONTROL_PREFIX + JSON.stringify(o)),
  fc.record({ type: fc.constantFrom('start', 'op.start', 'release'), operation: fc.constantFrom('proxy', 'exec', 'x'), op: fc.constantFrom('fs.read', 'exec'), params: jsonValue, args: jsonValue }, { requiredKeys: [] }).map((o) => JSON.stringify(o)),
);

describe('classifyControlText on arbitrary input', () => {
  it('throws nothing but a ProtocolError', () => {
    fc.assert(
      fc.property(envelopeJunk, (text) => {
        try {
          classifyControlText(text);
        } catch (err) {
          expect(err).toBeInstanceOf(ProtocolError);
        }
      }),
      { numRuns: RUNS * 10, seed: 24 },
    );
  });

  it('parses every valid op.start to its op and string args', () => {
    const arg = fc.oneof(fc.string(), fc.array(fc.string(), { maxLength: 4 }));
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.dictionary(fc.string().filter((k) => k !== '__proto__'), arg, { maxKeys: 6 }), (op, args) => {
        const got = classifyControlText(`${CONTROL_PREFIX}${JSON.stringify({ type: 'op.start', op, args })}`);
        expect(got).toStrictEqual({ kind: 'envelope', envelope: { type: 'op.start', op, args: { ...args } } });
      }),
      { numRuns: RUNS * 5, seed: 2424 },
    );
  });
});

describe('a control socket under junk between ops (shell engine)', () => {
  let srv: RunningServer;
  beforeAll(async () => {
    srv = await startTestServer('shell', { token: TOKEN });
    await api(srv.url)('POST', '/v1/sprites', { name: 'fuzz' });
  });
  afterAll(() => srv.close());

  const junkFrame: fc.Arbitrary<{ text?: string; bytes?: Uint8Array }> = fc.oneof(
    envelopeJunk.filter((t) => !/"type":"(op\.start|start)"/.test(t) && !t.startsWith('{"type":"op.start"')).map((text) => ({ text })),
    fc.uint8Array({ maxLength: 64 }).map((bytes) => ({ bytes })),
  );

  it('answers every exec op correctly, stays open, and sends only spec-valid frames', async () => {
    const validator = specValidator();
    const ws = new WebSocket(`${srv.url.replace(/^http/, 'ws')}/v1/sprites/fuzz/control`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    const frames: Array<{ binary: boolean; data: Buffer }> = [];
    const violations: string[] = [];
    let wake: () => void = () => {};
    ws.on('message', (data, isBinary) => {
      const buf = Buffer.from(data as Buffer);
      try {
        validator.checkFrame('controlSessionOutput', new Uint8Array(buf), isBinary);
      } catch (err) {
        violations.push(String(err));
      }
      frames.push({ binary: isBinary, data: buf });
      wake();
    });
    await new Promise((r) => ws.once('open', r));
    const until = (pred: () => boolean) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('timed out')), 20_000);
        wake = () => {
          if (pred()) {
            clearTimeout(timer);
            resolve();
          }
        };
        wake();
      });
    await fc.assert(
      fc.asyncProperty(fc.array(junkFrame, { maxLength: 8 }), fc.integer({ min: 0, max: 9999 }), async (junk, n) => {
        for (const j of junk) ws.send(j.text ?? Buffer.from(j.bytes!), { binary: j.text === undefined });
        const from = frames.length;
        ws.send(`${CONTROL_PREFIX}${JSON.stringify({ type: 'op.start', op: 'exec', args: { cmd: ['echo', `n${n}`] } })}`);
        const isComplete = (f: { binary: boolean; data: Buffer }) => !f.binary && f.data.toString().startsWith('control:{"type":"op.complete"');
        await until(() => frames.slice(from).some(isComplete));
        const mine = frames.slice(from);
        const out = mine.filter((f) => f.binary && f.data[0] === 1).map((f) => f.data.subarray(1).toString()).join('');
        expect(out).toBe(`n${n}\n`);
        expect(mine.find(isComplete)!.data.toString()).toBe('control:{"type":"op.complete","op":"exec","args":{"exitCode":0}}');
        expect(ws.readyState).toBe(WebSocket.OPEN);
      }),
      { numRuns: Math.min(RUNS, 60), seed: 2400 },
    );
    expect(violations).toEqual([]);
    ws.close();
    expect((await api(srv.url)('GET', '/v1/sprites/fuzz/exec')).json.sessions).toEqual([]);
  }, 120_000);
});
