import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../core/clock.ts';
import { engineLoader } from './load.ts';

describe('engineLoader', () => {
  it('builds the named engine on the first load and hands the same one to every later load', async () => {
    const loader = engineLoader('interpreter', { clock: new FakeClock() });
    expect(loader.name).toBe('interpreter');
    const [a, b] = await Promise.all([loader.load(), loader.load()]);
    expect(a.name).toBe('interpreter');
    expect(b).toBe(a);
    expect(await loader.load()).toBe(a);
  });
});
