/**
 * `xz -l` (`--list`): what the .xz container says of each file, read from its stream footers and indexes (no
 * decompression): streams, blocks, compressed and uncompressed sizes, ratio, integrity check, as XZ Utils 5 prints
 * them (list.c, and tuklib's uint64_to_nicestr for the sizes), with a totals line when several files are listed.
 * @see xz(1) "--list"; https://tukaani.org/xz/xz-file-format.txt
 */

/** What one .xz file holds. */
export interface XzInfo {
  streams: number;
  blocks: number;
  compressed: number;
  uncompressed: number;
  /** The check names of its streams (`CRC64`, `CRC32`, `SHA-256`, `None`). */
  checks: string[];
}

const CHECKS: Record<number, string> = { 0: 'None', 1: 'CRC32', 4: 'CRC64', 10: 'SHA-256' };

/** A multibyte integer of the .xz format at `at`: its value and the offset after it. */
function varint(b: Buffer, at: number): [number, number] {
  let value = 0;
  for (let shift = 1, i = at; i < b.length && i < at + 9; i++, shift *= 128) {
    value += (b[i]! & 0x7f) * shift;
    if ((b[i]! & 0x80) === 0) return [value, i + 1];
  }
  throw new Error('bad varint');
}

/** Why `b` cannot be listed (xz's words), or undefined when it can. */
export function xzUnlisted(b: Buffer): string | undefined {
  // A stream header and footer are 12 bytes each (list.c: parse_indexes).
  if (b.length < 24) return 'Too small to be a valid .xz file';
  return xzInfo(b) ? undefined : 'File format not recognized';
}

/**
 * The streams of .xz bytes `b`, read from the end (stream padding skipped), or undefined when they are not .xz
 * (`File format not recognized`) or are damaged.
 */
export function xzInfo(b: Buffer): XzInfo | undefined {
  if (b.length < 24 || !b.subarray(0, 6).equals(Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]))) return undefined;
  const info: XzInfo = { streams: 0, blocks: 0, compressed: b.length, uncompressed: 0, checks: [] };
  try {
    let end = b.length;
    while (end > 0) {
      while (end >= 4 && b.readUInt32LE(end - 4) === 0) end -= 4;
      if (end === 0) break;
      const footer = b.subarray(end - 12, end);
      if (footer.length < 12 || footer[10] !== 0x59 || footer[11] !== 0x5a) return undefined;
      const indexSize = (footer.readUInt32LE(4) + 1) * 4;
      const check = CHECKS[footer[9]! & 0x0f] ?? `Unknown-${footer[9]! & 0x0f}`;
      const indexStart = end - 12 - indexSize;
      if (indexStart < 12 || b[indexStart] !== 0) return undefined;
      let [records, at] = varint(b, indexStart + 1);
      let blocksSize = 0;
      for (let r = 0; r < records; r++) {
        const [unpadded, next] = varint(b, at);
        const [size, after] = varint(b, next);
        blocksSize += Math.ceil(unpadded / 4) * 4;
        info.uncompressed += size;
        at = after;
      }
      info.streams++;
      info.blocks += records;
      if (!info.checks.includes(check)) info.checks.unshift(check);
      end = indexStart - blocksSize - 12;
      if (end < 0) return undefined;
    }
  } catch {
    return undefined;
  }
  return info;
}

/** A size as xz prints it: bytes below 10000 (`88 B`), else KiB, MiB… with one decimal (`106.3 KiB`). */
function nice(n: number): string {
  if (n < 10000) return `${n} B`;
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let d = n;
  let u = 0;
  do {
    d /= 1024;
    u++;
  } while (d > 9999.9 && u < units.length - 1);
  return `${d.toFixed(1)} ${units[u]}`;
}

const ratio = (c: number, u: number) => (u === 0 || c / u > 9.999 ? '---' : (c / u).toFixed(3));
const row = (streams: string, blocks: string, c: number, u: number, check: string, name: string) =>
  `${streams.padStart(5)} ${blocks.padStart(7)}  ${nice(c).padStart(11)} ${nice(u).padStart(12)}  ${ratio(c, u).padStart(5)}  ${check.padEnd(7)} ${name}\n`;

/** `xz -l`'s table of `files` (name and what {@link xzInfo} read), with the totals line after two or more. */
export function xzListing(files: Array<{ name: string; info: XzInfo }>): string {
  if (files.length === 0) return '';
  let out = 'Strms  Blocks   Compressed Uncompressed  Ratio  Check   Filename\n';
  for (const { name, info } of files) out += row(String(info.streams), String(info.blocks), info.compressed, info.uncompressed, info.checks.join(','), name);
  if (files.length > 1) {
    const sum = (k: 'streams' | 'blocks' | 'compressed' | 'uncompressed') => files.reduce((n, f) => n + f.info[k], 0);
    const checks = [...new Set(files.flatMap((f) => f.info.checks))].join(',');
    out += `${'-'.repeat(79)}\n${row(String(sum('streams')), String(sum('blocks')), sum('compressed'), sum('uncompressed'), checks, `${files.length} files`)}`;
  }
  return out;
}
