/**
 * Reading and mending tar archives (ustar, GNU long names, pax paths) as byte strings, for the `tar` wrapper
 * (archive-commands.ts): the member names of an archive, and an archive whose members that were symlinks on disk
 * are made symlink members again (just-bash's tar stores what a symlink points to).
 * @see https://www.gnu.org/software/tar/manual/html_node/Standard.html
 */
import { gunzipSync, gzipSync } from 'node:zlib';

/** One member: its header's offset, its name, type flag, and the bytes it spans (header and data). */
export interface TarMember {
  offset: number;
  end: number;
  name: string;
  type: string;
}

const field = (b: string, at: number, len: number) => {
  const s = b.slice(at, at + len);
  const nul = s.indexOf('\0');
  return nul < 0 ? s : s.slice(0, nul);
};
const octal = (b: string, at: number, len: number) => parseInt(field(b, at, len).trim() || '0', 8);

/** Whether `bytes` start as gzip data. */
export const isGzipped = (bytes: string) => bytes.charCodeAt(0) === 0x1f && bytes.charCodeAt(1) === 0x8b;

/**
 * Whether `bytes` start with the magic of a compressor other than gzip (bzip2, xz, zstd, lzip, compress's `.Z`): such
 * an archive is not plain tar, and patching its "headers" would corrupt it.
 */
export const isOtherwiseCompressed = (bytes: string) =>
  bytes.startsWith('BZh') || bytes.startsWith('\xfd7zXZ\0') || bytes.startsWith('\x28\xb5\x2f\xfd') || bytes.startsWith('LZIP') || bytes.startsWith('\x1f\x9d');

/**
 * The tar bytes inside `bytes` (gunzipped when gzip), or undefined when they cannot be read here: corrupt gzip, or
 * another compressor's data (the callers that read bzip2 and xz archives decompress them first).
 */
export function tarBytes(bytes: string): string | undefined {
  if (isOtherwiseCompressed(bytes)) return undefined;
  if (!isGzipped(bytes)) return bytes;
  try {
    return gunzipSync(Buffer.from(bytes, 'latin1')).toString('latin1');
  } catch {
    return undefined;
  }
}

/** The members of tar bytes `b`, in order (long-name and pax headers folded into the member they name). */
export function tarMembers(b: string): TarMember[] {
  const members: TarMember[] = [];
  let longName: string | undefined;
  let start: number | undefined;
  for (let at = 0; at + 512 <= b.length; ) {
    if (/^\0*$/.test(b.slice(at, at + 512))) break;
    const size = octal(b, at + 124, 12);
    const type = b[at + 156] || '0';
    const end = at + 512 + Math.ceil(size / 512) * 512;
    if (type === 'L' || type === 'x' || type === 'K') {
      const data = b.slice(at + 512, at + 512 + size);
      if (type === 'L') longName = field(data, 0, size);
      else if (type === 'x') longName = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(data)?.[1] ?? longName;
      start ??= at;
      at = end;
      continue;
    }
    const prefix = b.slice(at + 257, at + 262) === 'ustar' ? field(b, at + 345, 155) : '';
    const name = longName ?? (prefix ? `${prefix}/${field(b, at, 100)}` : field(b, at, 100));
    members.push({ offset: start ?? at, end, name, type });
    longName = undefined;
    start = undefined;
    at = end;
  }
  return members;
}

/** `header` (512 bytes) with its checksum field recomputed: six octal digits, NUL, space (GNU's). */
export function checksummed(header: string): string {
  const blank = `${header.slice(0, 148)}        ${header.slice(156)}`;
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += blank.charCodeAt(i);
  return `${header.slice(0, 148)}${sum.toString(8).padStart(6, '0')}\0 ${header.slice(156)}`;
}

/**
 * The archive `bytes` (gzip kept gzip) with each member `linkOf` names made a symlink to what it returns (no
 * data), and the members below such a name dropped; undefined when nothing changed.
 */
export function withSymlinks(bytes: string, linkOf: (name: string) => string | undefined): string | undefined {
  const b = tarBytes(bytes);
  if (b === undefined) return undefined;
  const members = tarMembers(b);
  let out = '';
  let from = 0;
  let changed = false;
  const links: string[] = [];
  for (const m of members) {
    const bare = m.name.replace(/\/$/, '');
    const below = links.some((l) => bare.startsWith(`${l}/`));
    const target = below ? undefined : linkOf(bare);
    if (!below && target === undefined) continue;
    changed = true;
    out += b.slice(from, m.offset);
    from = m.end;
    if (below) continue;
    links.push(bare);
    // The member's own header (after any long-name header) becomes a symlink header.
    const own = tarMembersHeader(b, m);
    // A directory's name loses its `/`; a symlink's mode is 0777, as GNU stores it.
    const name = m.type === '5' ? field(own, 0, 100).replace(/\/$/, '').padEnd(100, '\0') : own.slice(0, 100);
    const header = `${name}0000777\0${own.slice(108, 124)}${'0'.repeat(11)}\0${own.slice(136, 156)}2${target!.slice(0, 100).padEnd(100, '\0')}${own.slice(257)}`;
    out += b.slice(m.offset, m.end - (own.length + dataLength(b, m))) + (target!.length > 100 ? longLink('K', target!) : '') + checksummed(header);
  }
  if (!changed) return undefined;
  out += b.slice(from);
  return isGzipped(bytes) ? gzipSync(Buffer.from(out, 'latin1')).toString('latin1') : out;
}

/** The 512-byte header of member `m` itself (the last header before its data). */
function tarMembersHeader(b: string, m: TarMember): string {
  return b.slice(m.end - dataLength(b, m) - 512, m.end - dataLength(b, m));
}

/** The padded data length of member `m` (found from the end, as its header is the last one). */
function dataLength(b: string, m: TarMember): number {
  for (let at = m.offset; at < m.end; ) {
    const size = Math.ceil(octal(b, at + 124, 12) / 512) * 512;
    if (at + 512 + size === m.end) return size;
    at += 512 + size;
  }
  return 0;
}

/** A member's ownership as its header stores it. */
export interface TarOwner {
  uid: number;
  gid: number;
  uname: string;
  gname: string;
}

/** The header fields of member `m` that `tar -d` compares: mode, owner, size, modification time (s), link target. */
export function tarHeader(b: string, m: TarMember): TarOwner & { mode: number; size: number; mtime: number; linkname: string } {
  const h = tarMembersHeader(b, m);
  return {
    mode: octal(h, 100, 8),
    uid: octal(h, 108, 8),
    gid: octal(h, 116, 8),
    size: octal(h, 124, 12),
    mtime: octal(h, 136, 12),
    linkname: field(h, 157, 100),
    uname: field(h, 265, 32),
    gname: field(h, 297, 32),
  };
}

/** The data of member `m` (its size's bytes after its own header). */
export function tarData(b: string, m: TarMember): string {
  const start = m.end - dataLength(b, m);
  return b.slice(start, start + octal(tarMembersHeader(b, m), 124, 12));
}

/** `bytes` rebuilt from plain tar `out`, gzipped again when `bytes` was gzip. */
const regzip = (bytes: string, out: string) => (isGzipped(bytes) ? gzipSync(Buffer.from(out, 'latin1')).toString('latin1') : out);

/** The archive `bytes` without the members `drop` names (their long-name headers too); undefined when none. */
export function withoutMembers(bytes: string, drop: (name: string) => boolean): string | undefined {
  const b = tarBytes(bytes);
  if (b === undefined) return undefined;
  let out = '';
  let from = 0;
  let changed = false;
  for (const m of tarMembers(b)) {
    if (!drop(m.name.replace(/\/$/, ''))) continue;
    changed = true;
    out += b.slice(from, m.offset);
    from = m.end;
  }
  return changed ? regzip(bytes, out + b.slice(from)) : undefined;
}

/** A number as a tar header's octal field of `len` bytes (digits, then NUL). */
export const octalField = (n: number, len: number) => `${n.toString(8).padStart(len - 1, '0')}\0`;

/** The archive `bytes` with each member's owner set to what `ownerOf` returns for it (ustar headers keep names). */
export function withOwners(bytes: string, ownerOf: (name: string) => TarOwner): string | undefined {
  const b = tarBytes(bytes);
  if (b === undefined) return undefined;
  let out = '';
  let from = 0;
  for (const m of tarMembers(b)) {
    const own = tarMembersHeader(b, m);
    const at = m.end - dataLength(b, m) - 512;
    const o = ownerOf(m.name.replace(/\/$/, ''));
    const ustar = own.slice(257, 262) === 'ustar';
    const names = ustar ? `${own.slice(263, 265)}${o.uname.slice(0, 31).padEnd(32, '\0')}${o.gname.slice(0, 31).padEnd(32, '\0')}${own.slice(329)}` : own.slice(263);
    const header = `${own.slice(0, 108)}${octalField(o.uid, 8)}${octalField(o.gid, 8)}${own.slice(124, 263)}${names}`;
    out += b.slice(from, at) + checksummed(header);
    from = at + 512;
  }
  return regzip(bytes, out + b.slice(from));
}

/**
 * A GNU long-name (`L`) or long-link (`K`) header and its data, for a name past the 100 bytes of a header: owned by
 * root, named so unless `--numeric-owner` (GNU's start_private_header).
 */
export function longLink(type: 'L' | 'K', name: string, numeric = false): string {
  const size = name.length + 1;
  const root = numeric ? '' : 'root';
  const header = `${'././@LongLink'.padEnd(100, '\0')}0000644\0${'0000000\0'.repeat(2)}${octalField(size, 12)}${octalField(0, 12)}        ${type}${'\0'.repeat(100)}ustar  \0${root.padEnd(32, '\0')}${root.padEnd(32, '\0')}`.padEnd(512, '\0');
  return checksummed(header) + `${name}\0`.padEnd(Math.ceil(size / 512) * 512, '\0');
}

/**
 * The archive `bytes` (gzip kept gzip) with each member renamed by `rename` (a directory's name without its `/`,
 * which is put back; hard and symbolic link targets too), as GNU tar's --transform stores them; a member renamed to
 * nothing is left out. Undefined when the bytes are not a readable archive.
 */
export function withNames(bytes: string, rename: (name: string) => string): string | undefined {
  const b = tarBytes(bytes);
  if (b === undefined) return undefined;
  const members = tarMembers(b);
  if (members.length === 0) return bytes;
  let out = '';
  for (const m of members) {
    const own = tarMembersHeader(b, m);
    const dir = m.name.endsWith('/');
    const renamed = rename(dir ? m.name.slice(0, -1) : m.name);
    if (renamed === '') continue;
    const name = dir ? `${renamed}/` : renamed;
    let pre = name.length > 100 ? longLink('L', name) : '';
    let header = `${name.slice(0, 100).padEnd(100, '\0')}${own.slice(100)}`;
    if (own.slice(257, 262) === 'ustar') header = `${header.slice(0, 345)}${'\0'.repeat(155)}${header.slice(500)}`;
    if (m.type === '1' || m.type === '2') {
      const target = rename(field(own, 157, 100));
      if (target.length > 100) pre += longLink('K', target);
      header = `${header.slice(0, 157)}${target.slice(0, 100).padEnd(100, '\0')}${header.slice(257)}`;
    }
    out += pre + checksummed(header) + b.slice(m.end - dataLength(b, m), m.end);
  }
  return regzip(bytes, out + b.slice(members[members.length - 1]!.end));
}
