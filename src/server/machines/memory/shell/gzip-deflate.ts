/**
 * gzip data as GNU gzip writes it. GNU gzip's deflate and zlib's share their origin and their match search, and
 * pako (a JavaScript port of zlib 1.2.8) finds the same matches for inputs under GNU's block-splitting threshold
 * (about 4096 literals), where node's zlib (Chromium's, with its own hashing) does not: `gzip -n a.txt | sha256sum`
 * matches GNU's for the small files agents compress. Larger inputs may still split their blocks elsewhere.
 * @see https://www.gnu.org/software/gzip/manual/gzip.html, RFC 1952
 */
import { crc32, inflateRawSync } from 'node:zlib';
import pako from 'pako';

/** The gzip header's extra flags for `level`: 2 (best), 4 (fastest), else 0 (gzip 1.12's deflate.c). */
const xfl = (level: number) => (level >= 9 ? 2 : level === 1 ? 4 : 0);

/** What a gzip header stores: the original name (none for stdin or `-n`) and time in seconds (0 for none). */
export interface GzipHeader {
  name?: string;
  mtime?: number;
}

/** A gzip member's header as GNU gzip writes it at `level`: deflate, the name flag, time, extra flags, OS 3 (Unix). */
function gzipHeader(level: number, h: GzipHeader): Buffer {
  const head = Buffer.alloc(10);
  head.set([0x1f, 0x8b, 8, h.name ? 8 : 0]);
  head.writeUInt32LE((h.mtime ?? 0) >>> 0, 4);
  head[8] = xfl(level);
  head[9] = 3;
  return h.name ? Buffer.concat([head, Buffer.from(h.name, 'latin1'), Buffer.from([0])]) : head;
}

/**
 * One gzip member of `data` at `level` (1–9, gzip's default 6), with `name` (the original name, stored with
 * `-N`/by default for files) and `mtime` (seconds; 0 for none, as `-n` and stdin store), OS byte 3 (Unix).
 */
export function gnuGzip(data: Uint8Array, level = 6, header: GzipHeader = {}): Buffer {
  const tail = Buffer.alloc(8);
  tail.writeUInt32LE(crc32(data) >>> 0, 0);
  tail.writeUInt32LE(data.length >>> 0, 4);
  return Buffer.concat([gzipHeader(level, header), Buffer.from(pako.deflateRaw(data, { level })), tail]);
}

/**
 * gzip bytes (one member or several, as `gzip -c a b` writes) with each member's deflate data written again as
 * GNU gzip's at `level`: trailers kept, headers too (their extra-flags byte set for the level) unless `headers`
 * gives the name and time of the member at its index. Bytes that do not parse as gzip members are kept as they are.
 */
export function regzipped(bytes: Buffer, level: number, headers?: GzipHeader[]): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  try {
    while (at < bytes.length) {
      if (bytes[at] !== 0x1f || bytes[at + 1] !== 0x8b || bytes[at + 2] !== 8) return bytes;
      const flags = bytes[at + 3]!;
      let data = at + 10;
      if (flags & 4) data += 2 + bytes.readUInt16LE(data);
      if (flags & 8) data = bytes.indexOf(0, data) + 1;
      if (flags & 16) data = bytes.indexOf(0, data) + 1;
      if (flags & 2) data += 2;
      const { buffer, engine } = inflateRawSync(bytes.subarray(data), { info: true }) as unknown as { buffer: Buffer; engine: { bytesWritten: number } };
      const given = headers?.[parts.length / 3];
      const head = given ? gzipHeader(level, given) : Buffer.from(bytes.subarray(at, data));
      head[8] = xfl(level);
      const end = data + engine.bytesWritten;
      parts.push(head, Buffer.from(pako.deflateRaw(buffer, { level })), bytes.subarray(end, end + 8));
      at = end + 8;
    }
  } catch {
    return bytes;
  }
  return Buffer.concat(parts);
}
