/**
 * ZIP archives in memory for the shell engine's `zip` and `unzip`: reading every entry of an archive (yauzl) and
 * writing a new one (yazl), each entry deflated with zlib at the requested level or stored when deflating does not
 * make it smaller, as Info-ZIP's zip decides.
 * @see https://pkware.cachefly.net/webdocs/casestudies/APPNOTE.TXT, Info-ZIP zip(1)
 */
import { deflateRawSync } from 'node:zlib';
import yauzl from 'yauzl';
import yazl from 'yazl';
import { DECOMPRESS_MAX_BYTES, DecompressLimitError } from './decompress-limit.ts';

/** One archive member: its name (`dir/` for a directory), content, time, Unix mode and how it is stored. */
export interface ZipEntry {
  name: string;
  data: Buffer;
  mtime: Date;
  mode: number;
  /** 0 stored, 8 deflated. */
  method: number;
  compressedSize: number;
  crc32: number;
  /** The general purpose bit flag (bits 1–2: the deflate option `unzip -v` shows as N, X, F, S). */
  flags: number;
}

/**
 * Every entry of the ZIP archive `bytes`, in archive order, with its content inflated.
 * @throws Error when `bytes` is not a ZIP archive (yauzl's message: no end of central directory record…);
 * DecompressLimitError as soon as the entries' content passes `cap` bytes together (decompress-limit.ts)
 */
export function readZip(bytes: Buffer, cap = DECOMPRESS_MAX_BYTES): Promise<ZipEntry[]> {
  let inflated = 0;
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true, decodeStrings: true }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error('not a zip archive'));
      const entries: ZipEntry[] = [];
      zip.on('error', reject);
      zip.on('end', () => resolve(entries));
      zip.on('entry', (e: yauzl.Entry) => {
        const base = {
          name: e.fileName,
          mtime: e.getLastModDate({ timezone: 'UTC' }),
          mode: e.externalFileAttributes >>> 16 || (e.fileName.endsWith('/') ? 0o40755 : 0o100644),
          method: e.compressionMethod,
          compressedSize: e.compressedSize,
          crc32: e.crc32,
          flags: e.generalPurposeBitFlag,
        };
        if (e.fileName.endsWith('/')) {
          entries.push({ ...base, data: Buffer.alloc(0) });
          zip.readEntry();
          return;
        }
        zip.openReadStream(e, (err2, stream) => {
          if (err2 || !stream) return reject(err2 ?? new Error('unreadable entry'));
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => {
            inflated += c.length;
            if (inflated > cap) {
              stream.destroy();
              zip.close();
              return reject(new DecompressLimitError(cap));
            }
            chunks.push(c);
          });
          stream.on('error', reject);
          stream.on('end', () => {
            entries.push({ ...base, data: Buffer.concat(chunks) });
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}

/** What to write for one member: content (none for a directory), time, Unix mode, deflate level 0–9. */
export interface NewEntry { name: string; data: Buffer; mtime: Date; mode: number; level: number }

/** How a written member was stored, for zip's `adding: NAME (deflated N%)` line. */
export interface Written { name: string; stored: boolean; size: number; compressedSize: number }

/**
 * A ZIP archive of `entries` (directories are names ending in `/`): each file deflated at its level, or stored when
 * the level is 0 or deflating does not shrink it. Times are written as UTC wall-clock DOS times (a sprite's zone).
 */
export function writeZip(entries: NewEntry[]): Promise<{ bytes: Buffer; written: Written[] }> {
  const zip = new yazl.ZipFile();
  const written: Written[] = [];
  for (const e of entries) {
    // DOS times are local wall-clock time: shift so yazl's local-time fields read the UTC ones.
    const mtime = new Date(e.mtime.getTime() + e.mtime.getTimezoneOffset() * 60000);
    if (e.name.endsWith('/')) {
      zip.addEmptyDirectory(e.name, { mtime, mode: e.mode });
      written.push({ name: e.name, stored: true, size: 0, compressedSize: 0 });
      continue;
    }
    const deflated = e.level > 0 && e.data.length > 0 ? deflateRawSync(e.data, { level: e.level }).length : Infinity;
    const stored = deflated >= e.data.length;
    zip.addBuffer(e.data, e.name, { mtime, mode: e.mode, compress: !stored, ...(stored ? {} : { compressionLevel: e.level }) });
    written.push({ name: e.name, stored, size: e.data.length, compressedSize: stored ? e.data.length : deflated });
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('error', reject);
    zip.outputStream.on('end', () => resolve({ bytes: Buffer.concat(chunks), written }));
    zip.end();
  });
}

/**
 * Info-ZIP's percentage saved, as its `percent()` rounds it: `(deflated 51%)`.
 * @deviation zlib's deflate (here) and Info-ZIP's own can differ by a few bytes, so the percentage by a point.
 */
export function percentSaved(size: number, compressedSize: number): number {
  return size <= compressedSize ? 0 : 100 - Math.floor((Math.floor((200 * compressedSize) / size) + 1) / 2);
}
