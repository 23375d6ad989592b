/**
 * Stdin of a command that never reads it is bounded on the sandbox engine, through a pipe or a terminal: past
 * `--max-stdin-bytes` waiting in the sprite, the agent kills the command with the documented stderr line (exit 137), rather than holding every byte sent.
 * Needs Linux, root and bubblewrap, as the other sandbox tests.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentBundle } from '../support/agent.ts';
import { stdinOverflowMessage } from '../../src/agent/supervisor.ts';
import { SandboxMachineFactory, type SandboxMachine } from '../../src/server/machines/sandbox/sandbox-machine.ts';
import { announceSkip, exec } from './support.ts';

const skip = announceSkip('sandbox stdin bound tests');
const MiB = 1024 * 1024;

describe.skipIf(skip)('sandbox exec stdin bound', () => {
  let factory: SandboxMachineFactory;
  let m: SandboxMachine;

  beforeAll(async () => {
    await agentBundle();
    factory = await SandboxMachineFactory.open({ spares: 0, limits: { pids: 512 }, maxStdinBytes: MiB });
    m = await factory.create({ name: 'stdin', id: 'sprite-stdin' });
  });

  afterAll(async () => {
    await factory?.close();
  });

  it('a command that never reads its stdin is killed once more than the limit waits, with the documented line', async () => {
    const err: Buffer[] = [];
    const p = m.spawn(
      { argv: ['sleep', '20'], env: { PATH: '/usr/bin:/bin' }, dir: '/home/sprite', tty: false, rows: 24, cols: 80 },
      { stdout: () => undefined, stderr: (d) => void err.push(Buffer.from(d)) },
      { stdin: true },
    );
    // 4 MiB in 64 KiB pieces: the pipe takes 64 KiB, the rest would wait in the agent.
    for (let i = 0; i < 64; i++) p.writeStdin(new Uint8Array(64 * 1024).fill(0x61));
    expect(await p.exit).toBe(137);
    expect(Buffer.concat(err).toString()).toBe(stdinOverflowMessage(MiB));
    // The sprite goes on.
    expect((await exec(m, 'echo alive')).out).toBe('alive\n');
  });

  it('on a terminal too: a command that never reads is killed once more than the limit waits', async () => {
    const out: Buffer[] = [];
    const p = m.spawn(
      { argv: ['sleep', '20'], env: { PATH: '/usr/bin:/bin', TERM: 'xterm' }, dir: '/home/sprite', tty: true, rows: 24, cols: 80 },
      { stdout: (d) => void out.push(Buffer.from(d)), stderr: () => undefined },
      { stdin: true },
    );
    // 4 MiB of lines: the terminal's buffer takes a few KiB, the rest would queue in the agent's node-pty.
    for (let i = 0; i < 64; i++) p.writeStdin(new Uint8Array(64 * 1024).fill(0x61).fill(0x0a, 1000, 1001));
    expect(await p.exit).toBe(137);
    expect(Buffer.concat(out).toString()).toContain(stdinOverflowMessage(MiB).replace(/\n/g, '\r\n'));
    expect((await exec(m, 'echo alive')).out).toBe('alive\n');
  });

  it('a command that reads gets all of a stdin far larger than the limit', async () => {
    const out: Buffer[] = [];
    const p = m.spawn(
      { argv: ['wc', '-c'], env: { PATH: '/usr/bin:/bin' }, dir: '/home/sprite', tty: false, rows: 24, cols: 80 },
      { stdout: (d) => void out.push(Buffer.from(d)), stderr: () => undefined },
      { stdin: true },
    );
    for (let i = 0; i < 8; i++) {
      p.writeStdin(new Uint8Array(MiB / 2).fill(0x62));
      // Paced by what the command has read: the writes are never more than the limit ahead of it.
      await exec(m, 'true');
    }
    p.endStdin();
    expect(await p.exit).toBe(0);
    expect(Buffer.concat(out).toString().trim()).toBe(String(4 * MiB));
  });
});
