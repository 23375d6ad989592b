/**
 * The WebAssembly liblzma that stands in for node-liblzma: its .xz output is XZ Utils' byte for byte (compared
 * with the host's `xz` where there is one, presets 7–9 included though their encoders do not fit its memory), it
 * reads what xz writes, stops at an output cap, words failures as xz does, and is the copy that just-bash and
 * spritzer's shell engine load (not a native node-liblzma brought in by an upgrade).
 */
import { describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
type Liblzma = {
  xzSync(b: Buffer, o?: { preset?: number; check?: number }): Buffer;
  unxzSync(b: Buffer, o?: { maxOutputLength?: number }): Buffer;
  versionString(): string;
  preset: { EXTREME: number };
};
const lzma = require('./index.cjs') as Liblzma;
const hostXz = spawnSync('xz', ['--version']).status === 0;

/** Deterministic text of about `n` bytes: numbered lines with some repetition, as logs and sources have. */
function text(n: number): Buffer {
  let s = '';
  for (let i = 0; s.length < n; i++) s += `line ${i} ${'abcdefgh'.repeat(i % 7)} ${(i * 2654435761) % 1000}\n`;
  return Buffer.from(s.slice(0, n));
}

describe('xzSync', () => {
  const inputs = { empty: Buffer.alloc(0), hello: Buffer.from('hello\n'), '200 KB of text': text(200_000) };
  const presets: Array<[string, number]> = [['-0', 0], ['-6', 6], ['-7', 7], ['-9', 9], ['-6e', 6 | lzma.preset.EXTREME], ['-9e', 9 | lzma.preset.EXTREME]];
  it.skipIf(!hostXz).each(Object.keys(inputs))("writes what the host's xz writes, at presets 0, 6, 7, 9, 6e, 9e: %s", (name) => {
    const data = inputs[name as keyof typeof inputs];
    for (const [flag, preset] of presets) {
      const ref = execFileSync('xz', ['-c', flag], { input: data });
      expect(lzma.xzSync(data, { preset }).toString('hex'), `${name} ${flag}`).toBe(ref.toString('hex'));
    }
  }, 60_000);

  it('refuses -9 of more than 16 MiB with xz\'s "Cannot allocate memory" (its encoder needs 674 MiB)', () => {
    const big = Buffer.alloc(17 << 20, 1);
    expect(() => lzma.xzSync(big, { preset: 9 })).toThrow(expect.objectContaining({ message: 'Cannot allocate memory', errno: 5 }));
    // The failed instance is dropped; the next call works.
    expect(lzma.unxzSync(lzma.xzSync(Buffer.from('after\n'))).toString()).toBe('after\n');
  });

  it('is liblzma 5.8', () => {
    expect(lzma.versionString()).toMatch(/^5\.8\./);
  });
});

describe('unxzSync', () => {
  const one = lzma.xzSync(Buffer.from('hello world\n'));

  it('reads concatenated streams, as xz -d does', () => {
    expect(lzma.unxzSync(Buffer.concat([one, one])).toString()).toBe('hello world\nhello world\n');
  });

  it('stops past maxOutputLength with ERR_BUFFER_TOO_LARGE', () => {
    const bomb = lzma.xzSync(Buffer.alloc(8 << 20), { preset: 0 });
    expect(() => lzma.unxzSync(bomb, { maxOutputLength: 1 << 20 })).toThrow(expect.objectContaining({ code: 'ERR_BUFFER_TOO_LARGE' }));
    expect(lzma.unxzSync(bomb, { maxOutputLength: 8 << 20 }).length).toBe(8 << 20);
  });

  it("words bad data as xz does: corrupt, cut short, not .xz", () => {
    const corrupt = Buffer.from(one);
    corrupt[corrupt.length - 30] ^= 0xff; // inside the LZMA2 data (XZ Utils 5.4 says the same of this file)
    expect(() => lzma.unxzSync(corrupt)).toThrow('Compressed data is corrupt');
    expect(() => lzma.unxzSync(one.subarray(0, one.length - 4))).toThrow('Unexpected end of input');
    expect(() => lzma.unxzSync(Buffer.from('not xz at all, but long enough'))).toThrow('File format not recognized');
  });
});

describe('the copies just-bash and the shell engine load', () => {
  // just-bash imports `node-liblzma` and `@mongodb-js/zstd` from its own directory; the workspaces under shims/
  // must be what that resolves to, or an upgrade of just-bash has brought the native packages back.
  const justBash = realpathSync(join(dirname(require.resolve('just-bash')), '..', '..'));
  const from = createRequire(join(justBash, 'package.json'));
  it.each([
    ['node-liblzma', join(here, 'index.cjs')],
    ['@mongodb-js/zstd', join(here, '..', 'zstd', 'index.cjs')],
  ])('%s is shims/', (name, file) => {
    expect(realpathSync(from.resolve(name))).toBe(realpathSync(file));
  });

  it('the zstd stand-in round-trips', async () => {
    const zstd = from('@mongodb-js/zstd') as { compress(b: Buffer, l?: number): Promise<Buffer>; decompress(b: Buffer): Promise<Buffer> };
    const packed = await zstd.compress(text(50_000), 3);
    expect((await zstd.decompress(packed)).equals(text(50_000))).toBe(true);
  });
});
