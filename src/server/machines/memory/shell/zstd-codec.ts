/**
 * The Zstandard codec of the shell engine (`zstd`, `tar --zstd`): compression by the reference library built to
 * WebAssembly (@bokuweb/zstd-wasm: Node 20's zlib has no zstd), with the XXH64 content checksum the zstd CLI adds
 * by default; decompression by fzstd (plain JavaScript, streaming, any number of frames, sizes known or not), capped
 * at DECOMPRESS_MAX_BYTES; and the frame facts `zstd -l` lists.
 * @see https://datatracker.ietf.org/doc/html/rfc8878 (the frame format), zstd(1)
 */
import { createRequire } from 'node:module';
import { Decompress } from 'fzstd';
import { DECOMPRESS_MAX_BYTES, DecompressLimitError } from './decompress-limit.ts';

/** The first four bytes of every Zstandard frame. */
export const ZSTD_MAGIC = Buffer.from([0x28, 0xb5, 0x2f, 0xfd]);

type ZstdWasm = { init(): Promise<void>; compress(buf: Uint8Array, level?: number): Uint8Array };
let wasm: Promise<ZstdWasm> | undefined;
/** The WebAssembly library, loaded and started on first use. */
function library(): Promise<ZstdWasm> {
  wasm ??= (async () => {
    const lib = createRequire(import.meta.url)('@bokuweb/zstd-wasm') as ZstdWasm;
    await lib.init();
    return lib;
  })();
  return wasm;
}

const M64 = (1n << 64n) - 1n;
const P1 = 11400714785074694791n;
const P2 = 14029467366897019727n;
const P3 = 1609587929392839161n;
const P4 = 9650029242287828579n;
const P5 = 2870177450012600261n;
const rotl = (x: bigint, r: bigint) => ((x << r) | (x >> (64n - r))) & M64;
const round = (acc: bigint, lane: bigint) => (rotl((acc + lane * P2) & M64, 31n) * P1) & M64;
const merge = (h: bigint, v: bigint) => (((h ^ round(0n, v)) * P1 + P4) & M64);

/** XXH64 of `data` with seed 0 (the checksum Zstandard frames carry the low 32 bits of). */
export function xxh64(data: Uint8Array): bigint {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const n = data.length;
  let i = 0;
  let h: bigint;
  if (n >= 32) {
    let v1 = (P1 + P2) & M64;
    let v2 = P2;
    let v3 = 0n;
    let v4 = (M64 + 1n - P1) & M64;
    for (; i + 32 <= n; i += 32) {
      v1 = round(v1, view.getBigUint64(i, true));
      v2 = round(v2, view.getBigUint64(i + 8, true));
      v3 = round(v3, view.getBigUint64(i + 16, true));
      v4 = round(v4, view.getBigUint64(i + 24, true));
    }
    h = (rotl(v1, 1n) + rotl(v2, 7n) + rotl(v3, 12n) + rotl(v4, 18n)) & M64;
    h = merge(merge(merge(merge(h, v1), v2), v3), v4);
  } else h = P5;
  h = (h + BigInt(n)) & M64;
  for (; i + 8 <= n; i += 8) h = ((rotl(h ^ round(0n, view.getBigUint64(i, true)), 27n) * P1) + P4) & M64;
  if (i + 4 <= n) {
    h = ((rotl(h ^ ((BigInt(view.getUint32(i, true)) * P1) & M64), 23n) * P2) + P3) & M64;
    i += 4;
  }
  for (; i < n; i++) h = (rotl(h ^ ((BigInt(data[i]!) * P5) & M64), 11n) * P1) & M64;
  h ^= h >> 33n;
  h = (h * P2) & M64;
  h ^= h >> 29n;
  h = (h * P3) & M64;
  return h ^ (h >> 32n);
}

/**
 * `data` as one Zstandard frame at `level` (1…22), with the content size and the XXH64 checksum in it, as the zstd
 * CLI writes a file.
 * @deviation The frame's blocks are the library's one-shot choice, not the CLI's streaming one: the bytes (and so
 * the sizes `zstd -l` and the summaries show) can differ from the CLI's for the same input; any zstd reads them.
 */
export async function zstdCompress(data: Uint8Array, level: number): Promise<Buffer> {
  const frame = Buffer.from((await library()).compress(data, level));
  // The library's one-shot frame has no checksum: set the header's Content_Checksum_flag and append the low 32 bits.
  frame[4] = frame[4]! | 0x04;
  const sum = Buffer.alloc(4);
  sum.writeUInt32LE(Number(xxh64(data) & 0xffffffffn));
  return Buffer.concat([frame, sum]);
}

/** A frame whose content does not match the XXH64 checksum it carries (zstd's "Restored data doesn't match checksum"). */
export class ZstdChecksumError extends Error {
  constructor() {
    super("Restored data doesn't match checksum");
    this.name = 'ZstdChecksumError';
  }
}

/**
 * The frames of `data` decompressed and joined; past `cap` bytes rejects with DecompressLimitError. A frame that
 * carries a content checksum is verified, as the zstd CLI does (ZstdChecksumError), when the frames can be told apart
 * from their headers; data too damaged for that is left to the decoder's own errors.
 */
export function zstdDecompress(data: Uint8Array, cap = DECOMPRESS_MAX_BYTES): Buffer {
  const buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const frames = zstdFrames(buf);
  if (!frames) return decode(buf, cap);
  const parts: Buffer[] = [];
  let total = 0;
  for (const f of frames) {
    if (f.skippable) continue;
    const out = decode(buf.subarray(f.start, f.end), cap - total);
    if (f.checksum !== undefined && Number(xxh64(out) & 0xffffffffn) !== f.checksum) throw new ZstdChecksumError();
    total += out.length;
    parts.push(out);
  }
  return Buffer.concat(parts);
}

/** `data` through fzstd's streaming decoder, joined; past `cap` bytes throws DecompressLimitError. */
function decode(data: Uint8Array, cap: number): Buffer {
  const parts: Uint8Array[] = [];
  let total = 0;
  const stream = new Decompress((chunk) => {
    total += chunk.length;
    if (total > cap) throw new DecompressLimitError(cap);
    parts.push(chunk);
  });
  stream.push(data, true);
  return Buffer.concat(parts);
}

/**
 * The zstd CLI's words for a decoding failure of `name` (`/*stdin*\\` for stdin): the cap as a full disk, data
 * that ends too soon, or any other damage.
 */
export function zstdFailure(name: string, err: unknown): string {
  // The CLI's decoding messages start with the input's name, not with `zstd:`.
  if (err instanceof DecompressLimitError) return `zstd: ${name}: No space left on device \n`;
  if (err instanceof ZstdChecksumError) return `${name} : Decoding error (36) : ${err.message} \n`;
  if (/EOF/.test(String((err as Error)?.message))) return `${name} : Read error (39) : premature end \n`;
  return `${name} : Decoding error (36) : Data corruption detected \n`;
}

/** What `zstd -l` lists of a file's frames. */
export interface ZstdListing {
  frames: number;
  skips: number;
  compressed: number;
  /** Undefined when a frame does not record its size. */
  uncompressed: number | undefined;
  checksum: boolean;
}

/** One frame of a Zstandard file: where it lies, and what its header and end say. */
interface ZstdFrame {
  start: number;
  /** Just past the frame (its checksum included). */
  end: number;
  skippable: boolean;
  /** The content size its header records, or undefined. */
  contentSize: number | undefined;
  /** The low 32 bits of the content's XXH64 the frame ends with, or undefined when it has none. */
  checksum: number | undefined;
}

/** Walks the frames of `data` (RFC 8878 frame headers and block headers); undefined when it is not Zstandard. */
function zstdFrames(data: Buffer): ZstdFrame[] | undefined {
  const frames: ZstdFrame[] = [];
  let p = 0;
  while (p < data.length) {
    if (p + 8 <= data.length && (data.readUInt32LE(p) & 0xfffffff0) === 0x184d2a50) {
      const end = p + 8 + data.readUInt32LE(p + 4);
      frames.push({ start: p, end, skippable: true, contentSize: 0, checksum: undefined });
      p = end;
      continue;
    }
    if (p + 5 > data.length || !data.subarray(p, p + 4).equals(ZSTD_MAGIC)) return undefined;
    const fhd = data[p + 4]!;
    const fcsFlag = fhd >> 6;
    const single = (fhd >> 5) & 1;
    const checksum = (fhd >> 2) & 1;
    const dictBytes = [0, 1, 2, 4][fhd & 3]!;
    const fcsBytes = [single ? 1 : 0, 2, 4, 8][fcsFlag]!;
    let q = p + 5 + (single ? 0 : 1) + dictBytes;
    if (q + fcsBytes > data.length) return undefined;
    const contentSize =
      fcsBytes === 0 ? undefined : fcsBytes === 1 ? data[q]! : fcsBytes === 2 ? data.readUInt16LE(q) + 256 : fcsBytes === 4 ? data.readUInt32LE(q) : Number(data.readBigUInt64LE(q));
    q += fcsBytes;
    for (;;) {
      if (q + 3 > data.length) return undefined;
      const header = data[q]! | (data[q + 1]! << 8) | (data[q + 2]! << 16);
      const type = (header >> 1) & 3;
      const size = header >> 3;
      q += 3 + (type === 1 ? 1 : size);
      if (header & 1) break;
    }
    if (q + (checksum ? 4 : 0) > data.length) return undefined;
    frames.push({ start: p, end: q + (checksum ? 4 : 0), skippable: false, contentSize, checksum: checksum ? data.readUInt32LE(q) : undefined });
    p = q + (checksum ? 4 : 0);
  }
  return frames;
}

/** Walks the frames of `data` for what `zstd -l` lists; undefined when it is not Zstandard. */
export function zstdList(data: Buffer): ZstdListing | undefined {
  const frames = zstdFrames(data);
  if (!frames) return undefined;
  const real = frames.filter((f) => !f.skippable);
  return {
    frames: real.length,
    skips: frames.length - real.length,
    compressed: data.length,
    uncompressed: real.some((f) => f.contentSize === undefined) ? undefined : real.reduce((n, f) => n + f.contentSize!, 0),
    checksum: real.some((f) => f.checksum !== undefined),
  };
}
