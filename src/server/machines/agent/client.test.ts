/**
 * The host side of the agent connection against a hostile agent (root inside a sprite can write any bytes on it):
 * golden and hostile byte streams written straight onto a real unix socket, and what the host then does: which
 * frames it refuses (and closes the connection for, naming why), how many relays it lets the agent open, and that
 * it never holds more than its bounds. No sandbox needed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { encodeEnvelope, encodeFrame, FrameType, HEADER_BYTES, MAX_PAYLOAD_BYTES } from '../../../protocol/agent.ts';
import { startHostileAgent, type HostileAgent } from '../../../../test/support/agent.ts';
import { DEFAULT_AGENT_BOUNDS, type AgentBounds } from './bounds.ts';
import { FakeClock } from '../../core/clock.ts';
import { ModelError } from '../../core/errors.ts';

const SMALL: AgentBounds = { ...DEFAULT_AGENT_BOUNDS, acceptedRelays: 8, relayBufferedBytes: 1024 * 1024, unsentBytes: 64 * 1024 };

let agents: HostileAgent[] = [];
afterEach(async () => {
  await Promise.all(agents.map((a) => a.stop()));
  agents = [];
});

async function hostile(opts: Parameters<typeof startHostileAgent>[0] = {}): Promise<HostileAgent> {
  const a = await startHostileAgent({ bounds: SMALL, ...opts });
  agents.push(a);
  return a;
}

/** Resolves when the host has closed the agent's connection. */
function hostHungUp(a: HostileAgent): Promise<void> {
  return new Promise((r) => (a.socket.destroyed ? r() : a.socket.once('close', () => r())));
}

/** A frame header that declares `payload` bytes, without the payload. */
function header(type: number, channel: number, payload: number): Buffer {
  const b = Buffer.alloc(HEADER_BYTES);
  b.writeUInt32BE(5 + payload, 0);
  b.writeUInt8(type, 4);
  b.writeUInt32BE(channel, 5);
  return b;
}

const accept = (ch: number) => encodeFrame(FrameType.Accept, ch, Buffer.from('{"listener":"api"}'));

describe('AgentClient against a hostile agent', () => {
  it('refuses a frame that declares 1 GiB at its header, closes the connection and says why', async () => {
    const a = await hostile();
    a.socket.write(Buffer.concat([header(FrameType.Stdout, 1, MAX_PAYLOAD_BYTES), Buffer.alloc(64 * 1024)]));
    await hostHungUp(a);
    await a.client.closed;
    expect(a.client.violation).toMatch(/declares 1073741824 bytes, over its limit of 1048576/);
  });

  it('refuses a reply of more than 1 MiB to a call that is not a file read', async () => {
    const a = await hostile();
    const ports = a.client.listeningPorts();
    while (a.received.length === 0) await new Promise((r) => setImmediate(r));
    const call = a.received[0]!;
    a.socket.write(header(FrameType.Reply, call.channel, 2 * 1024 * 1024));
    await expect(ports).rejects.toThrow(/connection lost/);
    expect(a.client.violation).toMatch(/over its limit of 1048576/);
  });

  it.each([
    ['CALL', encodeFrame(FrameType.Call, 1, encodeEnvelope({ op: 'hello' })), /only the host sends/],
    ['SPAWN', encodeFrame(FrameType.Spawn, 1, Buffer.from('{}')), /only the host sends/],
    ['STDIN', encodeFrame(FrameType.Stdin, 1, Buffer.from('x')), /only the host sends/],
    ['RESIZE', encodeFrame(FrameType.Resize, 1, Buffer.alloc(4)), /only the host sends/],
    ['a REPLY to no call', encodeFrame(FrameType.Reply, 4242, encodeEnvelope({ ok: true })), /not pending/],
    ['an ACCEPT with a host relay id', accept(7), /an id of the host's/],
    ['an unknown type', Buffer.from('00000005' + '63' + '00000001', 'hex'), /unknown frame type 99/],
  ])('closes the connection for %s', async (_what, bytes, why) => {
    const a = await hostile();
    a.socket.write(bytes);
    await hostHungUp(a);
    expect(a.client.violation).toMatch(why);
  });

  it('closes the connection for a second ACCEPT of a relay that is open', async () => {
    const a = await hostile();
    a.client.onAccept = (conn) => void conn.on('error', () => undefined);
    a.socket.write(Buffer.concat([accept(0x8000_0001), accept(0x8000_0001)]));
    await hostHungUp(a);
    expect(a.client.violation).toMatch(/which is open/);
  });

  it('lets the agent open at most acceptedRelays relays at once and resets the others; a closed one frees its place', async () => {
    const a = await hostile();
    const opened: number[] = [];
    a.client.onAccept = (conn) => void opened.push((conn.on('error', () => undefined) as unknown as { id: number }).id);
    const n = 20_000;
    const frames = Array.from({ length: n }, (_, i) => accept(0x8000_0000 + i));
    a.socket.write(Buffer.concat(frames));
    while (a.received.length < n - SMALL.acceptedRelays) await new Promise((r) => setTimeout(r, 5));
    expect(opened).toHaveLength(SMALL.acceptedRelays);
    expect(a.received.every((f) => f.type === FrameType.Reset)).toBe(true);
    expect(a.received[0]!.channel).toBe(0x8000_0000 + SMALL.acceptedRelays);
    // The agent ends one relay (RESET): the next ACCEPT is taken again.
    a.socket.write(Buffer.concat([encodeFrame(FrameType.Reset, opened[0]!), accept(0x9000_0000)]));
    while (opened.length < SMALL.acceptedRelays + 1) await new Promise((r) => setTimeout(r, 5));
    expect(opened.at(-1)).toBe(0x9000_0000);
    expect(a.client.violation).toBeUndefined();
  });

  it('closes the connection of an agent that keeps sending DATA past PAUSE, once the relays hold relayBufferedBytes', async () => {
    const a = await hostile();
    a.client.onAccept = (conn) => void conn.on('error', () => undefined); // nobody reads the relay
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    a.socket.write(accept(0x8000_0000));
    for (let i = 0; i < 40; i++) a.socket.write(encodeFrame(FrameType.Data, 0x8000_0000, chunk));
    await hostHungUp(a);
    expect(a.client.violation).toMatch(/ignored PAUSE/);
    expect(a.received.some((f) => f.type === FrameType.Pause && f.channel === 0x8000_0000)).toBe(true);
  });

  it('stops reading from an agent that never reads, so what the host owes it stays within unsentBytes', async () => {
    const a = await hostile({ read: false });
    const hostSocket = (a.client as unknown as { socket: import('node:net').Socket }).socket;
    // No onAccept: every ACCEPT is answered with a RESET the agent never reads. 2.6 MB of RESETs are owed.
    const burst = Buffer.concat(Array.from({ length: 10_000 }, (_, i) => accept(0x8000_0000 + i)));
    for (let i = 0; i < 30; i++) a.socket.write(burst);
    while (!hostSocket.isPaused()) await new Promise((r) => setTimeout(r, 5));
    expect(hostSocket.writableLength).toBeLessThanOrEqual(SMALL.unsentBytes + 64 * 1024);
    expect(a.socket.writableLength).toBeGreaterThan(0); // the agent's own writes wait now
    expect(a.client.violation).toBeUndefined();
  });

  it('still takes a well-formed stream: output, exit and a reply split at every byte', async () => {
    const a = await hostile();
    const out: string[] = [];
    const p = a.client.spawn(
      { argv: ['x'], env: {}, dir: '/', tty: false, rows: 24, cols: 80, uid: 1001, gid: 1001 },
      { stdout: (d) => out.push(Buffer.from(d).toString()), stderr: () => undefined },
      { stdin: false, pid: 3 },
    );
    const ports = a.client.listeningPorts();
    while (!a.received.some((f) => f.op === 'ports')) await new Promise((r) => setImmediate(r));
    const call = a.received.find((f) => f.op === 'ports')!;
    const bytes = Buffer.concat([
      encodeFrame(FrameType.Stdout, 3, Buffer.from('hello')),
      encodeFrame(FrameType.Exit, 3, Buffer.from('{"code":4}')),
      encodeFrame(FrameType.Reply, call.channel, encodeEnvelope({ ok: true, value: [{ port: 80, address: '0.0.0.0' }] })),
    ]);
    for (const b of bytes) a.socket.write(Buffer.of(b));
    expect(await p.exit).toBe(4);
    expect(await ports).toEqual([{ port: 80, address: '0.0.0.0' }]);
    expect(out.join('')).toBe('hello');
    expect(a.client.violation).toBeUndefined();
  });
});

describe('an accepted relay as a socket', () => {
  it('can be ended like a net.Socket (destroySoon): its bytes go out, then END, and it is gone', async () => {
    const a = await hostile();
    let conn: import('node:stream').Duplex | undefined;
    a.client.onAccept = (c) => void (conn = c.on('error', () => undefined));
    a.socket.write(accept(0x8000_0000));
    while (!conn) await new Promise((r) => setImmediate(r));
    conn.write('bye');
    (conn as unknown as { destroySoon(): void }).destroySoon();
    while (!conn.destroyed) await new Promise((r) => setImmediate(r));
    while (a.received.length < 3) await new Promise((r) => setImmediate(r));
    expect(a.received.map((f) => f.type)).toEqual([FrameType.Data, FrameType.End, FrameType.Reset]);
  });

  it('closes quietly when the agent connection is lost while nobody listens for its errors', async () => {
    const a = await hostile();
    let conn: import('node:stream').Duplex | undefined;
    a.client.onAccept = (c) => void (conn = c); // no 'error' listener, as a socket an HTTP server let go of
    a.socket.write(accept(0x8000_0000));
    while (!conn) await new Promise((r) => setImmediate(r));
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => uncaught.push(err);
    process.prependListener('uncaughtException', onUncaught);
    try {
      a.socket.destroy();
      await a.client.closed;
      while (!conn.destroyed) await new Promise((r) => setImmediate(r));
      await new Promise((r) => setImmediate(r));
    } finally {
      process.off('uncaughtException', onUncaught);
    }
    expect(uncaught).toEqual([]);
    expect(conn.destroyed).toBe(true);
  });
});

/** Waits (event-loop turns, no time) until `cond` holds. */
async function until(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setImmediate(r));
}

const reply = (channel: number, value: unknown) => encodeFrame(FrameType.Reply, channel, encodeEnvelope({ ok: true, value }));
const SPAWN = { argv: ['sleep', '9'], env: {}, dir: '/', tty: false, rows: 24, cols: 80, uid: 1001, gid: 1001 };

describe('deadlines of the calls to an agent that stopped answering (kill -STOP, a blocking read)', () => {
  it('fails an fs call at its deadline with ETIMEDOUT about its path; the connection stays usable and the late reply is dropped', async () => {
    const clock = new FakeClock();
    const a = await hostile({ timing: { clock, timeoutMs: 1000 } });
    const stat = a.client.fs.stat('/tmp/fifo');
    stat.catch(() => undefined);
    await until(() => a.received.length === 1);
    clock.advance(999);
    clock.advance(1);
    await expect(stat).rejects.toMatchObject({ name: 'VfsError', code: 'ETIMEDOUT', path: '/tmp/fifo' });
    await expect(stat).rejects.toThrow(/did not answer within 1000 ms/);
    const ports = a.client.listeningPorts();
    await until(() => a.received.length === 2);
    a.socket.write(Buffer.concat([reply(a.received[0]!.channel, { type: 'file' }), reply(a.received[1]!.channel, [])]));
    expect(await ports).toEqual([]);
    expect(a.client.violation).toBeUndefined();
  });

  it('gives a file read ten times the deadline of a stat', async () => {
    const clock = new FakeClock();
    const a = await hostile({ timing: { clock, timeoutMs: 1000 } });
    let failed: unknown;
    a.client.fs.readFile('/big').catch((err: unknown) => (failed = err));
    await until(() => a.received.length === 1);
    clock.advance(9_999);
    await new Promise((r) => setImmediate(r));
    expect(failed).toBeUndefined();
    clock.advance(1);
    await until(() => failed !== undefined);
    expect(failed).toMatchObject({ code: 'ETIMEDOUT', path: '/big' });
  });

  it('fails a call that is not an fs one with sprite_timeout (504)', async () => {
    const clock = new FakeClock();
    const a = await hostile({ timing: { clock, timeoutMs: 1000 } });
    const ports = a.client.listeningPorts();
    ports.catch(() => undefined);
    await until(() => a.received.length === 1);
    clock.advance(1000);
    const err = await ports.then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(ModelError);
    expect(err).toMatchObject({ kind: 'sprite_timeout' });
  });

  it('gives up a command the agent does not acknowledge: exit 137, a line on stderr, and a KILL for when it comes back', async () => {
    const clock = new FakeClock();
    const a = await hostile({ timing: { clock, timeoutMs: 1000 } });
    let err = '';
    const p = a.client.spawn(SPAWN, { stdout: () => undefined, stderr: (d) => (err += Buffer.from(d).toString()) }, { stdin: false, pid: 7 });
    await until(() => a.received.length === 2);
    expect(a.received.map((f) => f.op ?? f.type)).toEqual([FrameType.Spawn, 'hello']);
    clock.advance(1000);
    expect(await p.exit).toBe(137);
    expect(err).toMatch(/did not answer within 1000 ms/);
    await until(() => a.received.length === 3);
    expect(a.received[2]).toMatchObject({ type: FrameType.Signal, channel: 7 });
    // Output the agent sends later is not the given-up command's.
    a.socket.write(encodeFrame(FrameType.Stdout, 7, Buffer.from('late')));
    expect(a.client.violation).toBeUndefined();
  });

  it('ends a KILLed command whose exit the agent never reports at the deadline (137); an acknowledged one keeps running', async () => {
    const clock = new FakeClock();
    const a = await hostile({ timing: { clock, timeoutMs: 1000 } });
    let exit: number | undefined;
    const p = a.client.spawn(SPAWN, { stdout: () => undefined, stderr: () => undefined }, { stdin: false, pid: 8 });
    void p.exit.then((c) => (exit = c));
    await until(() => a.received.length === 2);
    const ports = a.client.listeningPorts();
    await until(() => a.received.length === 3);
    // The acknowledgement, then a reply that arrives after it (so it has been taken).
    a.socket.write(Buffer.concat([reply(a.received[1]!.channel, { version: 1 }), reply(a.received[2]!.channel, [])]));
    await ports;
    clock.advance(5000);
    await new Promise((r) => setImmediate(r));
    expect(exit).toBeUndefined();
    p.signal('KILL');
    clock.advance(1000);
    expect(await p.exit).toBe(137);
  });
});
