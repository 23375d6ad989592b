/**
 * An archive's bytes as GNU tar writes them (its default `gnu` format): each member's header with the magic
 * `ustar  \0`, mode (permission bits), ids, size and time as zero-padded octal, the owner's names, device fields
 * empty; a name past 100 bytes in a `././@LongLink` member before it (`L`, a link target `K`), never ustar's prefix
 * field; the archive closed by two zero blocks and padded to its 10240-byte record (blocking factor 20). With the
 * reproducible-archive options applied: `--mtime` (and `--clamp-mtime`), `--mode`, `--sort=name`.
 * So `tar --mtime=@0 --owner=0 --group=0 --numeric-owner --sort=name -cf - src | sha256sum` is GNU's sum.
 * @see https://www.gnu.org/software/tar/manual/html_node/Standard.html, …/Reproducibility.html
 */
import { checksummed, longLink, octalField, tarData, tarHeader, tarMembers, type TarMember } from './tar-archive.ts';

/** What the reproducible-archive options ask of each member. */
export interface GnuOptions {
  /** `--mtime`: every member's time (seconds); with `clamp`, only members newer than it. */
  mtime?: number;
  clamp?: boolean;
  /** `--mode`: the stored mode from the file's (permission bits), or unchanged. */
  mode?: (mode: number, isDir: boolean) => number;
  /** `--sort=name`: each directory's members in byte order of their names (operands keep their order). */
  sortName?: boolean;
  /** Names (and hard link targets) without their leading `/`, as GNU stores them unless `-P`. */
  stripSlash?: boolean;
  /** `--numeric-owner`: long-name members store no owner names either. */
  numeric?: boolean;
  /** `--no-recursion`: the members kept (by name without a directory's `/`); all when undefined. */
  only?: (name: string) => boolean;
}

/** The bytes of one 512-byte GNU header (checksummed) for the member fields given. */
function gnuHeader(f: { name: string; mode: number; uid: number; gid: number; size: number; mtime: number; type: string; linkname: string; uname: string; gname: string }): string {
  const header =
    f.name.slice(0, 100).padEnd(100, '\0') +
    octalField(f.mode & 0o7777, 8) +
    octalField(f.uid, 8) +
    octalField(f.gid, 8) +
    octalField(f.size, 12) +
    octalField(Math.max(0, f.mtime), 12) +
    '        ' +
    f.type +
    f.linkname.slice(0, 100).padEnd(100, '\0') +
    'ustar  \0' +
    f.uname.slice(0, 31).padEnd(32, '\0') +
    f.gname.slice(0, 31).padEnd(32, '\0');
  return checksummed(header.padEnd(512, '\0'));
}

/** `members` reordered as `--sort=name` walks: each member's children (the members just below it) by name. */
function sortedByName(members: TarMember[]): TarMember[] {
  type Node = { m: TarMember; kids: Node[] };
  const roots: Node[] = [];
  const stack: Node[] = [];
  for (const m of members) {
    const node: Node = { m, kids: [] };
    const bare = m.name.replace(/\/$/, '');
    while (stack.length > 0 && !bare.startsWith(stack[stack.length - 1]!.m.name.replace(/\/?$/, '/'))) stack.pop();
    (stack.length > 0 ? stack[stack.length - 1]!.kids : roots).push(node);
    if (m.type === '5') stack.push(node);
  }
  const byName = (a: Node, b: Node) => {
    const x = Buffer.from(a.m.name.replace(/\/$/, ''), 'latin1');
    const y = Buffer.from(b.m.name.replace(/\/$/, ''), 'latin1');
    return Buffer.compare(x, y);
  };
  const out: TarMember[] = [];
  const walk = (nodes: Node[]) => {
    for (const n of nodes) {
      out.push(n.m);
      walk([...n.kids].sort(byName));
    }
  };
  walk(roots);
  return out;
}

/**
 * Plain tar bytes `b` (any of ustar, GNU, with long names) written again as GNU tar writes them, with `o` applied.
 * Data is kept byte for byte; what follows the last member is replaced by GNU's end of archive.
 */
export function asGnuTar(b: string, o: GnuOptions = {}): string {
  let members = tarMembers(b);
  if (o.only) members = members.filter((m) => o.only!(m.name.replace(/\/$/, '')));
  if (o.sortName) members = sortedByName(members);
  let out = '';
  for (const m of members) {
    const h = tarHeader(b, m);
    const dir = m.type === '5';
    const stored = o.stripSlash ? m.name.replace(/^\/+/, '') : m.name;
    const name = dir ? stored.replace(/\/?$/, '/') : stored;
    const data = m.type === '0' || m.type === '\0' || m.type === '7' ? tarData(b, m) : '';
    const mtime = o.mtime === undefined || (o.clamp && h.mtime <= o.mtime) ? h.mtime : o.mtime;
    const mode = o.mode ? o.mode(h.mode & 0o7777, dir) : h.mode;
    const link = m.type === '1' || m.type === '2' ? linkTargetOf(b, m) : '';
    const target = m.type === '1' && o.stripSlash ? link.replace(/^\/+/, '') : link;
    if (name.length > 100) out += longLink('L', name, o.numeric);
    if (target.length > 100) out += longLink('K', target, o.numeric);
    out += gnuHeader({ name, mode, uid: h.uid, gid: h.gid, size: data.length, mtime, type: m.type === '\0' ? '0' : m.type, linkname: target, uname: h.uname, gname: h.gname });
    out += data.padEnd(Math.ceil(data.length / 512) * 512, '\0');
  }
  const end = out.length + 1024;
  return out.padEnd(Math.ceil(end / 10240) * 10240, '\0');
}

/** A link member's target: its `K` long-link data when it has one, else the header's field. */
function linkTargetOf(b: string, m: TarMember): string {
  for (let at = m.offset; at < m.end; ) {
    const size = parseInt(b.slice(at + 124, at + 136).replace(/\0.*$/s, '').trim() || '0', 8);
    if (b[at + 156] === 'K') return b.slice(at + 512, at + 512 + size).replace(/\0.*$/s, '');
    if (b[at + 156] !== 'L' && b[at + 156] !== 'x') break;
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return tarHeader(b, m).linkname;
}
