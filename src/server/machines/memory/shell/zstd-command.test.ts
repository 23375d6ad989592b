import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';
import { xxh64, zstdCompress, zstdDecompress, zstdList } from './zstd-codec.ts';

// The Zstandard CLI 1.5.4 and GNU tar 1.34 on a GNU/Linux host: what each printed for the same command.

describe('zstd codec', () => {
  it('reads a frame the zstd CLI wrote from a pipe (no content size), and writes frames with its XXH64 check', async () => {
    const cli = Buffer.from('28b52ffd0458a1000068656c6c6f20776f726c640a666f6f206261720a905230e7', 'hex');
    expect(zstdDecompress(cli).toString()).toBe('hello world\nfoo bar\n');
    const mine = await zstdCompress(Buffer.from('hello world\nfoo bar\n'), 3);
    expect(zstdDecompress(mine).toString()).toBe('hello world\nfoo bar\n');
    // The frame checksum is XXH64's low 32 bits, as `zstd -lv` shows it for the same content: e7305290.
    expect(mine.readUInt32LE(mine.length - 4).toString(16)).toBe('e7305290');
    expect((xxh64(Buffer.alloc(0)) & 0xffffffffn).toString(16)).toBe('51d8e999');
    expect(zstdList(mine)).toEqual({ frames: 1, skips: 0, compressed: 33, uncompressed: 20, checksum: true });
  });
});

describe('zstd checksums', () => {
  it('a frame whose content does not match its XXH64 is an error, per frame, and a good frame beside it still reads', async () => {
    const good = await zstdCompress(Buffer.from('a'.repeat(50) + 'b'.repeat(50)), 1);
    const bad = Buffer.from(good);
    bad[bad.length - 4] ^= 1;
    expect(zstdDecompress(Buffer.concat([good, good])).toString()).toBe(('a'.repeat(50) + 'b'.repeat(50)).repeat(2));
    expect(() => zstdDecompress(Buffer.concat([good, bad]))).toThrow("Restored data doesn't match checksum");
  });
  it('zstd -t, -dc and unzstd report a damaged file as the CLI does, and leave no output file behind', async () => {
    const r = await runShell('seq 1 100000 > f; zstd -q --rm f; printf "\\x41" | dd of=f.zst bs=1 seek=2000 conv=notrunc 2>/dev/null; zstd -t f.zst; echo s=$?; zstd -dc f.zst | wc -c; unzstd f.zst; echo s=$?; ls f*');
    const line = "f.zst : Decoding error (36) : Restored data doesn't match checksum \n";
    expect(r).toEqual({ stdout: 's=1\n0\ns=1\nf.zst\n', stderr: line.repeat(3), exit: 0 });
  });
});

describe('zstd, unzstd, zstdcat and tar --zstd', () => {
  const A = "printf 'hello world\\nfoo bar\\n' > a.txt && ";
  it('compress to NAME.zst keeping the source, with the CLI summary; back with -d, unzstd and zstdcat', async () => {
    expect(await runShell(`${A}zstd a.txt && ls && rm a.txt && unzstd -q a.txt.zst && cat a.txt && zstd -qf --rm a.txt && ls && zstdcat a.txt.zst | head -1`)).toEqual({
      stdout: 'a.txt\na.txt.zst\nhello world\nfoo bar\na.txt.zst\nhello world\n',
      stderr: 'a.txt                :165.00%   (    20 B =>     33 B, a.txt.zst) \n',
      exit: 0,
    });
  });
  it('lists frames with -l, refuses to overwrite without -f, and complains about what it cannot read', async () => {
    const r = await runShell(`${A}seq 1 10000 > big && zstd -q a.txt big && zstd -l a.txt.zst big.zst | tail -n +2; zstd -q a.txt; echo "s=$?"; zstd nope; echo "s=$?"; zstd -d a.txt; echo "s=$?"`);
    expect(r.stdout).toBe('     1      0      33   B        20   B  0.606  XXH64  a.txt.zst\n' + r.stdout.split('\n')[1] + '\ns=1\ns=1\ns=1\n');
    expect(r.stdout.split('\n')[1]).toMatch(/^ {5}1 {6}0 +\d+\.\d KiB {6}47\.7 KiB  \d\.\d{3}  XXH64  big\.zst$/);
    expect(r.stderr).toBe(
      "zstd: a.txt.zst already exists; not overwritten  \nzstd: can't stat nope : No such file or directory -- ignored \n" +
        "zstd: a.txt: unknown suffix (.zst/.tzst/.gz/.tgz/.lzma/.xz/.txz/.lz4/.tlz4 expected). Can't derive the output file name. Specify it with -o dstFileName. Ignoring.\n",
    );
  });
  it('tar --zstd writes and reads compressed archives, on a pipe or in a file; tar reads zstd without being told', async () => {
    expect((await runShell(`${A}tar --zstd -cf - a.txt | tar --zstd -tf -; mkdir src && echo x > src/f && tar --zstd -cf s.tar.zst src && rm -r src && tar -xf s.tar.zst && cat src/f && zstd -dc s.tar.zst | tar -tf -`)).stdout).toBe('a.txt\nx\nsrc/\nsrc/f\n');
  });
});
