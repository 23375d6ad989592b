/**
 * The agent lifecycle both agent-backed engines share (AgentMachine), on a minimal engine whose "boot" connects to
 * a scripted agent on a unix socket: spawns made while it boots wait for it, watches follow the agent across boots,
 * the in-sprite API's connections reach their listener, a lost agent calls the engine's crash handler, and one that
 * breaks the protocol leaves the sprite failed. No sandbox or container needed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { encodeFrame, FrameType } from '../../../protocol/agent.ts';
import { startHostileAgent, type HostileAgent } from '../../../../test/support/agent.ts';
import type { MachineSpec } from '../port.ts';
import { AgentMachine } from './agent-machine.ts';

let agents: HostileAgent[] = [];
afterEach(async () => {
  await Promise.all(agents.map((a) => a.stop()));
  agents = [];
});

/** An engine whose boots are scripted agents; it records what AgentMachine asks of it. */
class TestMachine extends AgentMachine {
  readonly spec: MachineSpec = { name: 't', id: 'sprite-t' };
  readonly crashes: number[] = [];
  readonly stopped: string[] = [];
  current?: HostileAgent;

  constructor() {
    super();
  }

  /** Boots on a fresh scripted agent, resolving once `go` resolves (a boot that takes its time). */
  boot(go: Promise<void> = Promise.resolve()): Promise<HostileAgent> {
    let agent!: HostileAgent;
    return this.startAgent(async (generation) => {
      await go;
      agent = await startHostileAgent();
      agents.push(agent);
      this.current = agent;
      this.routeAccepted(agent.client);
      this.takeAgent(agent.client, generation);
      return agent.client;
    }).then(() => agent);
  }

  end(): void {
    this.markDestroyed();
    this.dropAgent();
  }

  protected async onCrash(generation: number): Promise<void> {
    this.crashes.push(generation);
  }

  protected async stopFailed(reason: string): Promise<void> {
    this.stopped.push(reason);
    this.dropAgent();
  }
}

const req = { argv: ['x'], env: { A: '1' }, dir: '/', tty: false, rows: 24, cols: 80 };
const sink = { stdout: () => undefined, stderr: () => undefined };
const until = async (ok: () => boolean) => {
  while (!ok()) await new Promise((r) => setTimeout(r, 2));
};

describe('AgentMachine', () => {
  it('runs every process as the sprite user: uid/gid 1001 with the groups 27 and 100; an exec with its capabilities, a service without', async () => {
    const m = new TestMachine();
    const a = await m.boot();
    m.spawn(req, sink, { stdin: false });
    m.spawn({ ...req, service: true }, sink, { stdin: false });
    await until(() => a.received.filter((f) => f.type === FrameType.Spawn).length === 2);
    const [exec, service] = a.received.filter((f) => f.type === FrameType.Spawn).map((f) => f.spawn!);
    expect(exec).toMatchObject({ uid: 1001, gid: 1001, groups: [27, 100], caps: ['CAP_CHOWN', 'CAP_DAC_OVERRIDE', 'CAP_FOWNER', 'CAP_FSETID'] });
    expect(service).toMatchObject({ uid: 1001, gid: 1001, groups: [27, 100] });
    expect(service!.caps).toBeUndefined();
    m.end();
  });

  it('hands out increasing pids; a spawn made while the agent boots starts once it answers', async () => {
    const m = new TestMachine();
    let go!: () => void;
    const booted = m.boot(new Promise<void>((r) => (go = r)));
    const early = m.spawn(req, sink, { stdin: false });
    expect(early.pid).toBe(1);
    go();
    const a = await booted;
    const late = m.spawn(req, sink, { stdin: false });
    expect(late.pid).toBe(2);
    await until(() => a.received.filter((f) => f.type === FrameType.Spawn).length === 2);
    expect(a.received.filter((f) => f.type === FrameType.Spawn).map((f) => f.channel)).toEqual([1, 2]);
    m.end();
  });

  it('re-attaches a watch to the agent of every later boot, until it is stopped', async () => {
    const m = new TestMachine();
    const first = await m.boot();
    const stop = m.watch('/home', { recursive: true }, () => undefined);
    await until(() => first.received.some((f) => f.type === FrameType.Call));
    const second = await m.boot();
    await until(() => second.received.some((f) => f.type === FrameType.Call));
    stop();
    // A stopped watch is not sent to the next agent: the only call it gets is this one (it never answers).
    const third = await m.boot();
    void m.listeningPorts().catch(() => undefined);
    await until(() => third.received.some((f) => f.type === FrameType.Call));
    await new Promise((r) => setTimeout(r, 20));
    expect(third.received.filter((f) => f.type === FrameType.Call)).toHaveLength(1);
    m.end();
  });

  it('routes the in-sprite API connections the agent accepts to the onApiConnection listener', async () => {
    const m = new TestMachine();
    const a = await m.boot();
    const conns: unknown[] = [];
    const off = m.onApiConnection((conn) => void conns.push(conn.on('error', () => undefined)));
    a.socket.write(encodeFrame(FrameType.Accept, 0x8000_0000, Buffer.from('{"listener":"api"}')));
    await until(() => conns.length === 1);
    off();
    // Without a listener the connection is reset.
    a.socket.write(encodeFrame(FrameType.Accept, 0x8000_0001, Buffer.from('{"listener":"api"}')));
    await until(() => a.received.some((f) => f.type === FrameType.Reset && f.channel === 0x8000_0001));
    expect(conns).toHaveLength(1);
    m.end();
  });

  it('calls the crash handler with the boot that lost its agent, not for an older boot', async () => {
    const m = new TestMachine();
    const first = await m.boot();
    const second = await m.boot();
    first.socket.destroy();
    await first.client.closed;
    second.socket.destroy();
    await until(() => m.crashes.length === 1);
    expect(m.crashes).toEqual([2]);
    expect(m.bootFailure).toBeUndefined();
    m.end();
  });

  it('marks the sprite failed when the agent breaks the protocol; a boot that succeeds clears it', async () => {
    const m = new TestMachine();
    const a = await m.boot();
    a.socket.write(Buffer.from('00000005' + '63' + '00000001', 'hex'));
    await until(() => m.stopped.length === 1);
    expect(m.stopped[0]).toMatch(/unknown frame type 99/);
    expect(m.crashes).toEqual([]);
    expect(m.bootFailure).toMatch(/^the sprite's agent broke the protocol \(.*unknown frame type 99.*\); the sprite was stopped$/);
    await expect(m.listeningPorts()).rejects.toMatchObject({ kind: 'sprite_unavailable', message: expect.stringMatching(/^sprite t failed: .*restore one of its checkpoints or delete it$/) });
    const p = m.spawn(req, { stdout: () => undefined, stderr: () => undefined }, { stdin: false });
    expect(await p.exit).toBe(137);
    await m.boot();
    expect(m.bootFailure).toBeUndefined();
    m.end();
  });

  it('refuses every call once destroyed', async () => {
    const m = new TestMachine();
    await m.boot();
    m.end();
    await expect(m.connect('localhost', 80)).rejects.toThrow('sprite t is destroyed');
    await expect(m.fs.stat('/')).rejects.toThrow('sprite t is destroyed');
    await expect(m.stop()).rejects.toThrow('sprite t is destroyed');
  });
});
