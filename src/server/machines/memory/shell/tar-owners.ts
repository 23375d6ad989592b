/**
 * The owners GNU tar stores for the members it archives: the file's uid and gid with their names from the sprite's
 * /etc/passwd and /etc/group, or what `--owner`/`--group` say (`NAME:ID`, a number, a name), only the ids with
 * `--numeric-owner`. just-bash's tar knows none of these options.
 * @see https://www.gnu.org/software/tar/manual/html_node/override.html
 */
import type { IFileSystem } from 'just-bash';
import { tarBytes, tarMembers, withOwners, type TarOwner } from './tar-archive.ts';
import type { TarPlan } from './tar-plan.ts';

/** `--owner`, `--group`, `--numeric-owner`, and the command line without them. */
export interface OwnerOptions {
  owner?: string;
  group?: string;
  numeric: boolean;
  rest: string[];
}

/** `--owner`, `--group` and `--numeric-owner` of a tar command line, and the line without them (just-bash lacks them). */
export function ownerOptions(args: string[]): OwnerOptions {
  const o: OwnerOptions = { numeric: false, rest: [] };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const m = /^--(owner|group)(?:=(.*))?$/.exec(a);
    if (m) o[m[1] as 'owner' | 'group'] = m[2] ?? args[++i] ?? '';
    else if (a === '--numeric-owner') o.numeric = true;
    else o.rest.push(a);
  }
  return o;
}

/** `name:id` lines of /etc/passwd or /etc/group: id by name and name by id. */
async function idTable(fs: IFileSystem, path: string): Promise<{ byName: Map<string, number>; byId: Map<number, string> }> {
  const byName = new Map<string, number>();
  const byId = new Map<number, string>();
  const text = await fs.readFile(path).catch(() => '');
  for (const line of text.split('\n')) {
    const [name, , id] = line.split(':');
    if (name && id !== undefined && /^\d+$/.test(id)) {
      byName.set(name, Number(id));
      if (!byId.has(Number(id))) byId.set(Number(id), name);
    }
  }
  return { byName, byId };
}

/**
 * What an `--owner`/`--group` value stores: `NAME:ID`, a number (named from the table), or a name (its id from the
 * table; -1, the file's own id, for a name the sprite does not know).
 */
function ownerValue(value: string, table: { byName: Map<string, number>; byId: Map<number, string> }): { id: number; name: string } {
  const pair = /^(.*):(\d+)$/.exec(value);
  if (pair) return { id: Number(pair[2]), name: pair[1]! };
  if (/^\+?\d+$/.test(value)) return { id: Number(value.replace('+', '')), name: table.byId.get(Number(value.replace('+', ''))) ?? '' };
  // A name the sprite does not know is stored as given, with the file's own id (GNU tar).
  return { id: table.byName.get(value) ?? -1, name: value };
}

/**
 * Each member's owner in the plain tar bytes `b` just created: the file's (named from /etc/passwd and /etc/group),
 * or `--owner`/`--group`'s, named unless numeric; by member name without a directory's `/`.
 */
export async function ownersOf(chdirs: string[], o: OwnerOptions, fs: IFileSystem, cwd: string, b: string): Promise<Map<string, TarOwner>> {
  const users = await idTable(fs, '/etc/passwd');
  const groups = await idTable(fs, '/etc/group');
  const owner = o.owner === undefined ? undefined : ownerValue(o.owner, users);
  const group = o.group === undefined ? undefined : ownerValue(o.group, groups);
  const base = chdirs.reduce((d, c) => fs.resolvePath(d, c), cwd);
  const owners = new Map<string, TarOwner>();
  for (const m of tarMembers(b)) {
    const st = (await fs.lstat(fs.resolvePath(base, m.name)).catch(() => null)) as { uid?: number; gid?: number } | null;
    const uid = owner && owner.id >= 0 ? owner.id : (st?.uid ?? 0);
    const gid = group && group.id >= 0 ? group.id : (st?.gid ?? 0);
    owners.set(m.name.replace(/\/$/, ''), { uid, gid, uname: o.numeric ? '' : (owner?.name ?? users.byId.get(uid) ?? ''), gname: o.numeric ? '' : (group?.name ?? groups.byId.get(gid) ?? '') });
  }
  return owners;
}

/** The archive just created (plain or gzip; a file, or `stdout`) with each member's owner as {@link ownersOf} says. */
export async function setOwners(p: TarPlan, o: OwnerOptions, fs: IFileSystem, cwd: string, stdout: string): Promise<{ stdout?: string }> {
  const archivePath = p.archive !== undefined && p.archive !== '-' ? fs.resolvePath(cwd, p.archive) : undefined;
  const raw = archivePath ? Buffer.from(await fs.readFileBuffer(archivePath)).toString('latin1') : stdout;
  const bytes = tarBytes(raw);
  if (bytes === undefined) return {};
  const owners = await ownersOf(p.chdirs, o, fs, cwd, bytes);
  const rewritten = withOwners(raw, (name) => owners.get(name)!);
  if (rewritten === undefined) return {};
  if (archivePath) {
    await fs.writeFile(archivePath, Buffer.from(rewritten, 'latin1'));
    return {};
  }
  return { stdout: rewritten };
}
