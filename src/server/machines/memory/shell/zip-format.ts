/**
 * ZIP archives in memory for the shell engine's `zip` and `unzip`: reading every entry of an archive (yauzl), with
 * the times and owner of Info-ZIP's extra fields; writing one is zip-write.ts.
 * @see https://pkware.cachefly.net/webdocs/casestudies/APPNOTE.TXT, Info-ZIP zip(1)
 */
import yauzl from 'yauzl';
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
  /** The owner in Info-ZIP's "ux" extra field, when the member has one. */
  uid?: number;
  gid?: number;
}

/**
 * The modification time (seconds) of a "UT" extended timestamp field and the owner of a "ux" field among a member's
 * extra fields (Info-ZIP's proginfo/extrafld.txt), where present.
 */
function infoZipExtras(fields: Array<{ id: number; data: Buffer }>): { mtime?: Date; uid?: number; gid?: number } {
  const out: { mtime?: Date; uid?: number; gid?: number } = {};
  for (const f of fields) {
    if (f.id === 0x5455 && f.data.length >= 5 && f.data[0]! & 1) out.mtime = new Date(f.data.readUInt32LE(1) * 1000);
    if (f.id === 0x7875 && f.data.length >= 3 && f.data[0] === 1) {
      const uidSize = f.data[1]!;
      const gidSize = f.data[2 + uidSize];
      if (uidSize === 4 && gidSize === 4 && f.data.length >= 11) {
        out.uid = f.data.readUInt32LE(2);
        out.gid = f.data.readUInt32LE(7);
      }
    }
  }
  return out;
}

/**
 * A member's name as UnZip shows it on Unix: the name's own bytes as UTF-8 when the archive was made on Unix without
 * the UTF-8 flag (Info-ZIP's zip writes names as they are on disk), else as yauzl decodes it (UTF-8 by the flag or
 * a Unicode path field, CP437 for DOS-made archives). yauzl has already refused absolute names and `..` on either.
 */
function memberName(e: yauzl.Entry): string {
  const unixMade = e.versionMadeBy >> 8 === 3;
  const unicodePath = e.extraFields.some((f) => f.id === 0x7075);
  return unixMade && !(e.generalPurposeBitFlag & 0x800) && !unicodePath ? Buffer.from(e.fileNameRaw).toString('utf8') : e.fileName;
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
        const extras = infoZipExtras(e.extraFields);
        const base = {
          name: memberName(e),
          // unzip restores the UT field's time (to the second) where the DOS time keeps even seconds.
          mtime: extras.mtime ?? e.getLastModDate({ timezone: 'UTC' }),
          ...(extras.uid !== undefined ? { uid: extras.uid, gid: extras.gid } : {}),
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

/**
 * Info-ZIP's percentage saved, as its `percent()` rounds it: `(deflated 51%)`.
 */
export function percentSaved(size: number, compressedSize: number): number {
  return size <= compressedSize ? 0 : 100 - Math.floor((Math.floor((200 * compressedSize) / size) + 1) / 2);
}
