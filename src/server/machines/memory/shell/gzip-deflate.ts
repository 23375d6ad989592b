/**
 * gzip data as GNU gzip writes it. GNU gzip's deflate and zlib's share their origin and their match search; pako (a
 * JavaScript port of zlib 1.2.8) is run with gzip's sizes (32768-entry hash, 32768 symbols a block) and gzip's rule
 * for ending a block early (every 4096 symbols, when fewer than half are matches and the block would shrink to less
 * than half), so `gzip -n f | sha256sum` and a reproducible `tar -czf` give GNU's sums. Node's zlib (Chromium's,
 * with its own hashing) picks other matches.
 * @see https://www.gnu.org/software/gzip/manual/gzip.html, RFC 1952, gzip 1.12's deflate.c and trees.c (ct_tally)
 */
import { crc32, inflateRawSync } from 'node:zlib';
import pako from 'pako';
import trees, { type TallyState } from 'pako/lib/zlib/trees.js';

/** Extra bits of each distance code (RFC 1951), which gzip's early-end estimate counts. */
const EXTRA_DBITS = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];

/** zlib's tally with gzip's ct_tally ending: the early end above, or a full 32768-symbol buffer. */
function gzipTally(zlibTally: typeof trees._tr_tally): typeof trees._tr_tally {
  return (s, dist, lc) => {
    const full = zlibTally(s, dist, lc);
    if (s.level > 2 && (s.last_lit & 0xfff) === 0) {
      let out = s.last_lit * 8;
      for (let code = 0; code < 30; code++) out += s.dyn_dtree[code * 2]! * (5 + EXTRA_DBITS[code]!);
      if (s.matches < s.last_lit >> 1 && out >>> 3 < (s.strstart - s.block_start) >> 1) return true;
    }
    return full;
  };
}

/** Raw deflate of `data` at `level` as GNU gzip's deflate makes it. */
export function gnuDeflate(data: Uint8Array, level: number): Buffer {
  // memLevel 9 gives gzip's 32768-symbol block buffer; the hash is set back to gzip's 15 bits.
  const d = new pako.Deflate({ level, raw: true, memLevel: 9 });
  const s = d.strm.state;
  s.hash_bits = 15;
  s.hash_size = 1 << 15;
  s.hash_mask = s.hash_size - 1;
  s.hash_shift = 5;
  s.head = new Uint16Array(s.hash_size);
  // pako's deflate calls the tally through its module: swapped for this synchronous run only.
  const zlibTally = trees._tr_tally;
  trees._tr_tally = gzipTally(zlibTally);
  try {
    d.push(data, true);
  } finally {
    trees._tr_tally = zlibTally;
  }
  if (d.err) throw new Error(`deflate failed (${d.err})`);
  return Buffer.from(d.result);
}

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
  return Buffer.concat([gzipHeader(level, header), gnuDeflate(data, level), tail]);
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
      parts.push(head, gnuDeflate(buffer, level), bytes.subarray(end, end + 8));
      at = end + 8;
    }
  } catch {
    return bytes;
  }
  return Buffer.concat(parts);
}
