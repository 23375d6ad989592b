/**
 * ZIP archives as Info-ZIP's zip 3.0 writes them on Unix, for the shell engine's `zip`: each member deflated by
 * GNU's deflate (Info-ZIP's deflate.c is gzip's, so the sizes and the `deflated N%` figures are zip's) or stored
 * when deflating does not make it smaller; the local and central headers with zip's versions, option bits, text
 * flag, Unix mode and its "UT" (times) and "ux" (owner) extra fields; data descriptors when the archive goes to a
 * pipe. `sha256sum` of an archive of files with fixed times is then Info-ZIP's.
 * @see https://pkware.cachefly.net/webdocs/casestudies/APPNOTE.TXT, Info-ZIP zip 3.0 (zipfile.c, zipup.c, unix.c,
 *   trees.c set_file_type), proginfo/extrafld.txt
 */
import { crc32 } from 'node:zlib';
import { gnuDeflate } from './gzip-deflate.ts';

/** What to write for one member: content (none for a directory), time, Unix mode, owner, deflate level 0–9. */
export interface NewEntry { name: string; data: Buffer; mtime: Date; mode: number; level: number; uid?: number; gid?: number }

/** How a written member was stored, for zip's `adding: NAME (deflated N%)` line. */
export interface Written { name: string; stored: boolean; size: number; compressedSize: number }

/** What {@link writeZip} may leave out or change: `extras` false is `zip -X`; `stream` is an archive written to a pipe. */
export interface ZipWriteOptions { extras?: boolean; stream?: boolean }

/**
 * DOS time and date of `d` (the sprite's zone is UTC), odd seconds rounded up to the next even one and a time before
 * 1980 (where DOS dates begin) taken as 1980-01-01 00:00, as Info-ZIP's unix2dostime does.
 */
function dosTime(d: Date): { time: number; date: number } {
  const t = new Date(Math.ceil(d.getTime() / 2000) * 2000);
  if (t.getUTCFullYear() < 1980) return { time: 0, date: (1 << 5) | 1 };
  return {
    time: (t.getUTCHours() << 11) | (t.getUTCMinutes() << 5) | (t.getUTCSeconds() >> 1),
    date: ((t.getUTCFullYear() - 1980) << 9) | ((t.getUTCMonth() + 1) << 5) | t.getUTCDate(),
  };
}

/**
 * Info-ZIP's text-or-binary guess (trees.c set_file_type) on the literals of the first deflate block, here on the
 * first 32 KiB: binary if any byte 0–6, 14–25 or 28–31 occurs, else text if a tab, newline, carriage return or a byte
 * from 32 up occurs, else binary.
 * @deviation zip looks at the first block's literals only; this looks at the first 32 KiB, which a block covers at
 *   least in most files.
 */
function looksText(data: Buffer): boolean {
  const head = data.subarray(0, 32768);
  let text = false;
  for (const b of head) {
    if (b < 32 && (0xf3ffc07f >>> b) & 1) return false;
    if (b >= 32 || b === 9 || b === 10 || b === 13) text = true;
  }
  return text;
}

/** The "UT" extended timestamp field (mtime and atime in the local header, mtime alone in the central one) and "ux". */
function extraFields(e: NewEntry, local: boolean): Buffer {
  const secs = Math.floor(e.mtime.getTime() / 1000) >>> 0;
  const ut = Buffer.alloc(local ? 13 : 9);
  ut.writeUInt16LE(0x5455, 0);
  ut.writeUInt16LE(local ? 9 : 5, 2);
  ut[4] = 3;
  ut.writeUInt32LE(secs, 5);
  // @deviation the sprite's files keep no access time: the modification time stands for it.
  if (local) ut.writeUInt32LE(secs, 9);
  const ux = Buffer.alloc(15);
  ux.writeUInt16LE(0x7875, 0);
  ux.writeUInt16LE(11, 2);
  ux.set([1, 4], 4);
  ux.writeUInt32LE((e.uid ?? 0) >>> 0, 6);
  ux[10] = 4;
  ux.writeUInt32LE((e.gid ?? 0) >>> 0, 11);
  return Buffer.concat([ut, ux]);
}

/**
 * A ZIP archive of `entries` in order (directories are names ending in `/`) as Info-ZIP's zip writes it, and how
 * each member was stored. Names are written as their UTF-8 bytes without the UTF-8 flag (zip 3.0 in the C locale).
 */
export function writeZip(entries: NewEntry[], o: ZipWriteOptions = {}): { bytes: Buffer; written: Written[] } {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  const written: Written[] = [];
  let offset = 0;
  for (const e of entries) {
    const dir = e.name.endsWith('/');
    const data = dir ? Buffer.alloc(0) : e.data;
    const deflated = !dir && e.level > 0 && data.length > 0 ? gnuDeflate(data, e.level) : undefined;
    const stored = deflated === undefined || deflated.length >= data.length;
    const body = stored ? data : deflated!;
    const crc = crc32(data) >>> 0;
    // Bits 1–2: the deflate option (8–9 maximum, 1–2 fast), bit 3: sizes in a data descriptor after the data.
    const flags = (stored ? 0 : e.level >= 8 ? 2 : e.level <= 2 ? 4 : 0) | (o.stream ? 8 : 0);
    const method = stored ? 0 : 8;
    const need = stored ? 10 : 20;
    const { time, date } = dosTime(e.mtime);
    const name = Buffer.from(e.name, 'utf8');
    const extras = o.extras === false ? [Buffer.alloc(0), Buffer.alloc(0)] : [extraFields(e, true), extraFields(e, false)];
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(need, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    // To a pipe zip knows the file's size beforehand (from stat), not its CRC or compressed size.
    if (!o.stream) {
      local.writeUInt32LE(crc, 14);
      local.writeUInt32LE(body.length, 18);
    }
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(extras[0]!.length, 28);
    const descriptor = Buffer.alloc(o.stream ? 16 : 0);
    if (o.stream) {
      descriptor.writeUInt32LE(0x08074b50, 0);
      descriptor.writeUInt32LE(crc, 4);
      descriptor.writeUInt32LE(body.length, 8);
      descriptor.writeUInt32LE(data.length, 12);
    }
    const head = Buffer.alloc(46);
    head.writeUInt32LE(0x02014b50, 0);
    head.writeUInt16LE((3 << 8) | 30, 4);
    head.writeUInt16LE(need, 6);
    head.writeUInt16LE(flags, 8);
    head.writeUInt16LE(method, 10);
    head.writeUInt16LE(time, 12);
    head.writeUInt16LE(date, 14);
    head.writeUInt32LE(crc, 16);
    head.writeUInt32LE(body.length, 20);
    head.writeUInt32LE(data.length, 24);
    head.writeUInt16LE(name.length, 28);
    head.writeUInt16LE(extras[1]!.length, 30);
    // Internal attributes: 1 for text, which zip guesses only when it tried to deflate.
    head.writeUInt16LE(deflated !== undefined && looksText(data) ? 1 : 0, 36);
    // External attributes: the Unix mode above, MS-DOS's directory and read-only bits below.
    head.writeUInt32LE((((e.mode & 0xffff) << 16) | (dir ? 0x10 : 0) | (e.mode & 0o200 ? 0 : 1)) >>> 0, 38);
    head.writeUInt32LE(offset, 42);
    const member = Buffer.concat([local, name, extras[0]!, body, descriptor]);
    parts.push(member);
    central.push(Buffer.concat([head, name, extras[1]!]));
    offset += member.length;
    written.push({ name: e.name, stored, size: data.length, compressedSize: body.length });
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return { bytes: Buffer.concat([...parts, directory, end]), written };
}
