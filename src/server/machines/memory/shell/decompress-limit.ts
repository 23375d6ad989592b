/**
 * The bound on what one decompression may produce in the shell engine, whose commands run inside spritzer's own
 * process: a few kilobytes of compressed zeros would otherwise grow spritzer's memory by gigabytes. It owns the
 * number and the capped decoders the shell's gzip, xz, bzip2 and unzip use (zlib `maxOutputLength`, liblzma's
 * `maxOutputLength` and compressjs stopped at the cap); each command words the refusal as its real tool words a full
 * disk.
 * @see docs/limits.md (decompression in the shell engine)
 */
import { gunzipSync } from 'node:zlib';
import { createRequire } from 'node:module';
import compressjs from 'compressjs';

/**
 * Most bytes one decompression may produce: 256 MiB, just-bash's own output limit (`maxOutputSize`), which its
 * gzip and tar already apply to what they decompress. A larger output fails as on a full disk.
 * @deviation a real sprite decompresses up to its disk (to a file) or without a bound (to a pipe).
 */
export const DECOMPRESS_MAX_BYTES = 256 * 1024 * 1024;

/** A decompression stopped at {@link DECOMPRESS_MAX_BYTES}: the caller reports "No space left on device". */
export class DecompressLimitError extends Error {
  constructor(readonly limit: number) {
    super(`decompressed data would pass ${limit} bytes`);
    this.name = 'DecompressLimitError';
  }
}

/** gzip data (one or more members) decompressed, at most `cap` bytes; throws DecompressLimitError past it. */
export function gunzipCapped(data: Buffer, cap = DECOMPRESS_MAX_BYTES): Buffer {
  try {
    return gunzipSync(data, { maxOutputLength: cap });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw new DecompressLimitError(cap);
    throw err;
  }
}

/** bzip2 data decompressed into a buffer that grows to at most `cap` bytes; throws DecompressLimitError past it. */
export function bunzip2Capped(data: Buffer, cap = DECOMPRESS_MAX_BYTES): Buffer {
  let buf = Buffer.alloc(Math.min(cap, Math.max(64 * 1024, data.length * 4)));
  let n = 0;
  const out = {
    writeByte(b: number): void {
      if (n === buf.length) {
        if (n >= cap) throw new DecompressLimitError(cap);
        const bigger = Buffer.alloc(Math.min(cap, buf.length * 2));
        buf.copy(bigger, 0, 0, n);
        buf = bigger;
      }
      buf[n++] = b;
    },
  };
  compressjs.Bzip2.decompressFile(data, out);
  return buf.subarray(0, n);
}

type Unxz = { unxzSync(b: Buffer, o: { maxOutputLength: number }): Buffer };

/**
 * xz data (concatenated streams too) decompressed by liblzma's stream decoder (shims/node-liblzma, installed as
 * `node-liblzma`), which stops as soon as its output passes `cap` bytes: rejects with DecompressLimitError then, and
 * with liblzma's error (e.g. "Compressed data is corrupt") on bad data.
 */
export async function unxzCapped(data: Buffer, cap = DECOMPRESS_MAX_BYTES): Promise<Buffer> {
  const lzma = createRequire(import.meta.url)('node-liblzma') as Unxz;
  try {
    return lzma.unxzSync(data, { maxOutputLength: cap });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw new DecompressLimitError(cap);
    throw err;
  }
}
