import { describe, it, expect } from 'vitest';
import { FakeClock } from '../../core/clock.ts';
import { Vfs } from './vfs.ts';
import { createEngine, ENGINE_NAMES, type EngineName } from './engines.ts';

describe('createEngine', () => {
  it.each(ENGINE_NAMES.map((n) => [n]))('%s runs `echo hello world` in the sprite', async (name) => {
    const engine = createEngine(name, { clock: new FakeClock() });
    expect(engine.name).toBe(name);
    let out = '';
    const vfs = Vfs.skeleton(() => 0);
    const proc = engine.start(
      { name: 'demo', vfs, allocatePid: () => 7 },
      { argv: ['sh', '-c', 'echo hello world; echo v1 > /tmp/k'], env: {}, dir: '/home/sprite', tty: false, rows: 24, cols: 80 },
      { stdout: (d) => void (out += Buffer.from(d).toString()), stderr: () => {} },
      { stdin: false },
    );
    expect(proc.pid).toBe(7);
    expect(await proc.exit).toBe(0);
    expect(out).toBe('hello world\n');
    expect(vfs.exists('/tmp/k')).toBe(true);
  });

  it('rejects an unknown engine name', () => {
    expect(() => createEngine('docker' as EngineName, { clock: new FakeClock() })).toThrow(/unknown exec engine: docker/);
  });
});
