/**
 * GNU tar's verbose member lines (`tar -tv`, and `tar -cvv` as it writes), from an archive's headers.
 * @see https://www.gnu.org/software/tar/manual/html_node/verbose-tutorial.html
 */
import { tarHeader, tarMembers } from './tar-archive.ts';
import { permissions } from './ls-long.ts';

/** Whether archive member `name` is named by an operand (the operand itself or a directory above it). */
export const named = (operands: string[], name: string) => operands.length === 0 || operands.some((o) => name === o.replace(/\/+$/, '') || name.startsWith(`${o.replace(/\/+$/, '')}/`));

/** GNU tar's type letter of a member's type flag (`-` file, `d`, `l` symlink, `h` hard link…). */
const TYPE_LETTER: Record<string, string> = { '0': '-', '\0': '-', '5': 'd', '2': 'l', '1': 'h', '3': 'c', '4': 'b', '6': 'p' };

/**
 * `tar -tv`'s listing, as GNU prints it: mode, `user/group` (the names stored, or the ids with `--numeric-owner`)
 * and the size right-aligned in a column that starts 18 wide and grows, `YYYY-MM-DD HH:MM` (UTC, a sprite's zone),
 * the name (`-> target` for a symlink, `link to NAME` for a hard link).
 */
export function verboseListing(b: string, members: string[], numeric: boolean): string {
  let width = 18;
  let out = '';
  for (const m of tarMembers(b)) {
    const name = m.name.replace(/\/$/, '');
    if (!named(members, name)) continue;
    const h = tarHeader(b, m);
    const user = !numeric && h.uname ? h.uname : String(h.uid);
    const group = !numeric && h.gname ? h.gname : String(h.gid);
    const size = String(m.type === '5' || m.type === '2' || m.type === '1' ? 0 : h.size);
    const pad = user.length + 1 + group.length + size.length;
    if (pad > width) width = pad;
    const when = new Date(h.mtime * 1000).toISOString().slice(0, 16).replace('T', ' ');
    const tail = m.type === '2' ? ` -> ${h.linkname}` : m.type === '1' ? ` link to ${h.linkname}` : '';
    out += `${TYPE_LETTER[m.type] ?? '-'}${permissions(h.mode)} ${user}/${group} ${size.padStart(width - pad + size.length)} ${when} ${m.name}${tail}\n`;
  }
  return out;
}
