/**
 * A decompression bomb run by the shell engine (whose commands run in spritzer's own process) stops at the
 * decompression cap and fails as the real tool fails on a full disk; the output is never produced whole. The bombs
 * are 300 MiB of zeros, a few hundred bytes to about a megabyte compressed.
 */
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { runShell, testSprite } from '../../../../../test/support/shell-run.ts';
import { DECOMPRESS_MAX_BYTES } from './decompress-limit.ts';
import { writeZip } from './zip-write.ts';

const BOMB_BYTES = 300 * 1024 * 1024;
/** 300 MiB of zeros through `bzip2 -9` (host bzip2 1.0.8). */
const BZ2 = 'QlpoOTFBWSZTWQ4J4t8BX45AAMAAAAggADCATUZCoCWpCoCXMUFZJlNZDgni3wFfjkAAwAAACCAAMIBNRkKgJakKgJcxQVkmU1kOCeLfAV+OQADAAAAIIAAwgE1GQqAlqQqAlzFBWSZTWQ4J4t8BX45AAMAAAAggADCATUZCoCWpCoCXMUFZJlNZDgni3wFfjkAAwAAACCAAMIBNRkKgJakKgJcxQVkmU1kOCeLfAV+OQADAAAAIIAAwgE1GQqAlqQqAlzFBWSZTWaJ1bucBLBJABMAAAAEACCAAMMwFKaYiBSNiRApHi7kinChIKup7h4A=';

/** A ustar archive of one regular file `name` of `size` zero bytes. */
function tarOfZeros(name: string, size: number): Buffer {
  const header = Buffer.alloc(512);
  header.write(name, 0);
  header.write('0000644\0', 100);
  header.write('0000000\0', 108);
  header.write('0000000\0', 116);
  header.write(size.toString(8).padStart(11, '0') + '\0', 124);
  header.write('00000000000\0', 136);
  header.write('        ', 148);
  header.write('0', 156);
  header.write('ustar\x0000', 257);
  let sum = 0;
  for (const b of header) sum += b;
  header.write(sum.toString(8).padStart(6, '0') + '\0 ', 148);
  return Buffer.concat([header, Buffer.alloc(Math.ceil(size / 512) * 512 + 1024)]);
}

const bombs: Record<string, Buffer> = {};
beforeAll(async () => {
  const zeros = Buffer.alloc(BOMB_BYTES);
  bombs['z.gz'] = gzipSync(zeros, { level: 1 });
  const lzma = createRequire(import.meta.url)('node-liblzma') as { xzSync(b: Buffer, o: { preset: number }): Buffer };
  bombs['z.xz'] = Buffer.from(lzma.xzSync(zeros, { preset: 0 }));
  bombs['z.bz2'] = Buffer.from(BZ2, 'base64');
  bombs['z.zip'] = (writeZip([{ name: 'z', data: zeros, mtime: new Date(0), mode: 0o100644, level: 1 }])).bytes;
  bombs['z.tgz'] = gzipSync(tarOfZeros('z', BOMB_BYTES), { level: 1 });
}, 60_000);

/** Runs `script` in a fresh sprite holding the bomb `file` in /home/sprite. */
function withBomb(file: string, script: string) {
  const ctx = testSprite();
  ctx.vfs.writeFile(`/home/sprite/${file}`, bombs[file]!);
  return runShell(script, ctx).then((r) => ({ ...r, exists: (p: string) => ctx.vfs.exists(p) }));
}

describe(`decompression in the shell engine stops at ${DECOMPRESS_MAX_BYTES} bytes, as on a full disk`, () => {
  it('zcat and gzip -dc: "gzip: stdout: No space left on device", exit 1, and no more than the cap reaches stdout', async () => {
    for (const script of ['zcat z.gz | wc -c; echo "${PIPESTATUS[0]}"', 'gzip -dc < z.gz | wc -c; echo "${PIPESTATUS[0]}"']) {
      const r = await withBomb('z.gz', `bash -c '${script.replace(/'/g, `'\\''`)}'`);
      expect({ script, stderr: r.stderr, stdout: r.stdout }).toEqual({ script, stderr: 'gzip: stdout: No space left on device\n', stdout: '0\n1\n' });
    }
  }, 120_000);

  it('gunzip and gzip -d in place: the output is not written, the .gz stays, exit 1', async () => {
    for (const script of ['gunzip z.gz', 'gzip -d z.gz']) {
      const r = await withBomb('z.gz', script);
      expect({ script, exit: r.exit, stderr: r.stderr }).toEqual({ script, exit: 1, stderr: 'gzip: z: No space left on device\n' });
      expect([r.exists('/home/sprite/z'), r.exists('/home/sprite/z.gz')]).toEqual([false, true]);
    }
  }, 120_000);

  it('unxz, xz -d and xzcat: "Write error: No space left on device", exit 1, nothing written', async () => {
    const inPlace = await withBomb('z.xz', 'unxz z.xz');
    expect({ exit: inPlace.exit, stderr: inPlace.stderr }).toEqual({ exit: 1, stderr: 'unxz: z: Write error: No space left on device\n' });
    expect([inPlace.exists('/home/sprite/z'), inPlace.exists('/home/sprite/z.xz')]).toEqual([false, true]);
    const piped = await withBomb('z.xz', 'xz -dc z.xz');
    expect({ exit: piped.exit, stderr: piped.stderr, stdout: piped.stdout.length }).toEqual({ exit: 1, stderr: 'xz: (stdout): Write error: No space left on device\n', stdout: 0 });
  }, 120_000);

  it("bunzip2 and bzcat: bzip2's I/O error with No space left on device, exit 1, nothing written", async () => {
    const inPlace = await withBomb('z.bz2', 'bunzip2 z.bz2');
    expect({ exit: inPlace.exit, stderr: inPlace.stderr }).toEqual({
      exit: 1,
      stderr: 'bunzip2: I/O or other error, bailing out.  Possible reason follows.\nbunzip2: No space left on device\n\tInput file = z.bz2, output file = z\n',
    });
    expect(inPlace.exists('/home/sprite/z')).toBe(false);
    const piped = await withBomb('z.bz2', 'bzcat z.bz2');
    expect({ exit: piped.exit, stdout: piped.stdout.length }).toEqual({ exit: 1, stdout: 0 });
    expect(piped.stderr).toContain('bzcat: No space left on device\n\tInput file = z.bz2, output file = (stdout)\n');
  }, 120_000);

  it("unzip: Info-ZIP's disk-full error, exit 50, nothing extracted", async () => {
    const r = await withBomb('z.zip', 'unzip z.zip');
    expect({ exit: r.exit, stderr: r.stderr }).toEqual({ exit: 50, stderr: 'error:  z.zip: write error (disk full?)\n' });
    expect(r.exists('/home/sprite/z')).toBe(false);
  }, 120_000);

  it('tar -xzf: refused, nothing extracted', async () => {
    const r = await withBomb('z.tgz', 'tar -xzf z.tgz');
    expect(r.exit).not.toBe(0);
    expect(r.stderr).not.toBe('');
    expect(r.exists('/home/sprite/z')).toBe(false);
  }, 120_000);
});
