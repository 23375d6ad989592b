// A service's command on the in-memory machine: its output goes to the log in the sprite's VFS as log text, to the
// caller only while tapped, and the exit comes once the last line is appended.
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../core/clock.ts';
import type { EngineProcess, ExecEngine, SpriteContext } from './engine.ts';
import { MemoryMachine } from './machine.ts';
import type { ExecIO, ExecRequest } from '../port.ts';

/** An engine whose one process writes what the test tells it and ends when told. */
class ScriptedEngine implements ExecEngine {
  readonly name = 'scripted';
  io!: ExecIO;
  finish!: (code: number) => void;
  start(ctx: SpriteContext, _req: ExecRequest, io: ExecIO): EngineProcess {
    this.io = io;
    const exit = new Promise<number>((resolve) => (this.finish = resolve));
    return { pid: ctx.allocatePid(), writeStdin: () => {}, endStdin: () => {}, resize: () => {}, signal: () => {}, exit };
  }
}

const LOG = '/.sprite/logs/services/web.log';
const bytes = (s: string) => new TextEncoder().encode(s);

describe('service logs on the in-memory machine', () => {
  it('logs every line, hands output over only while tapped, and exits after the last line is in', async () => {
    const engine = new ScriptedEngine();
    const m = new MemoryMachine({ name: 'alpha', id: 'spr_1' }, engine, new FakeClock());
    const seen: string[] = [];
    const proc = m.spawn(
      { argv: ['web'], env: {}, dir: '/', tty: false, rows: 24, cols: 80, log: { path: LOG, tap: false } },
      { stdout: (d) => seen.push(`o:${new TextDecoder().decode(d)}`), stderr: (d) => seen.push(`e:${new TextDecoder().decode(d)}`) },
      { stdin: false },
    );
    engine.io.stdout(bytes('one\n'));
    proc.tap(true);
    engine.io.stderr(bytes('two\n'));
    proc.tap(false);
    engine.io.stdout(bytes('three\nunfinished'));
    engine.finish(0);
    expect(await proc.exit).toBe(0);
    expect(seen).toEqual(['e:two\n']);
    expect(new TextDecoder().decode(await m.fs.readFile(LOG))).toBe('one\n[stderr] two\nthree\nunfinished\n');
  });

  it('a process started without a log hands everything over and writes no log', async () => {
    const engine = new ScriptedEngine();
    const m = new MemoryMachine({ name: 'alpha', id: 'spr_1' }, engine, new FakeClock());
    const seen: string[] = [];
    const proc = m.spawn({ argv: ['x'], env: {}, dir: '/', tty: false, rows: 24, cols: 80 }, { stdout: (d) => seen.push(new TextDecoder().decode(d)), stderr: () => {} }, { stdin: false });
    proc.tap(false);
    engine.io.stdout(bytes('all\n'));
    engine.finish(0);
    await proc.exit;
    expect(seen).toEqual(['all\n']);
    await expect(m.fs.stat(LOG)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
