/**
 * The root filesystem of sandbox sprites: the read-only base every sprite shares (the host's OS by allowlist, or
 * a prepared root) and the seed of each sprite's writable layer (the overlay upper/work directories, a
 * sprite-owned `/usr/local`, `/etc/hostname`, `/etc/hosts`). It builds directories only; it mounts nothing
 * (the launcher does, inside the sprite's mount namespace) and knows nothing of btrfs or snapshots.
 */
import { constants as fsc } from 'node:fs';
import { chmod, chown, copyFile, lstat, mkdir, readFile, readdir, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { buildWhiteouts, findUnreadable } from './hidden.ts';
import { SPRITE_GID, SPRITE_HOME, SPRITE_UID } from '../../../protocol/sprite-tree.ts';
import { withSpriteGroups, withSpritePasswd } from '../../../protocol/sprite-accounts.ts';

/**
 * The first id of a regular user (login.defs' UID_MIN and GID_MIN on Debian and Ubuntu): the host's accounts below
 * it (and 65534) are system ones, copied into a sprite; those from it on are people's, left out.
 */
const FIRST_USER_ID = 1000;

/**
 * One overlay of a sprite's root: `lower` (a host directory, read-only) merged at `target` (the path inside
 * the sprite) with the sprite's `<layer>/<name>/upper`. Overlayfs does not cross mounts inside a lower dir,
 * so the host base uses one tree for `/` (the skeleton) and one for `/usr` (the host's own).
 */
export interface RootTree {
  /** Path inside the sprite, `/` first. */
  target: string;
  /** Host directory used as the read-only lower layer. */
  lower: string;
  /** Name of the tree's directory inside a sprite's layer (`root`, `usr`, …). */
  name: string;
  /**
   * A host directory of overlayfs whiteouts stacked above `lower` (hidden.ts): the entries of a host tree that not
   * every host user may read are absent inside. Absent when nothing is hidden (and for the skeleton, a prepared root).
   */
  hidden?: string;
}

/** A base every sprite of one server shares: the trees to overlay, outermost (`/`) first. */
export interface BaseRoot {
  /** `host` = the host's OS by allowlist; `prepared` = a root given with `--sandbox-root`. */
  kind: 'host' | 'prepared';
  trees: RootTree[];
}

/**
 * Entries of the host's `/etc` copied into the base (relative paths; a trailing `*` matches a prefix). Nothing
 * else of `/etc` is visible: no `shadow`/`gshadow`, no SSH host keys, no `npmrc`/`pip.conf`/`gitconfig`
 * (they may hold credentials), no `ssl/private`. Within these, only world-readable entries are copied.
 */
export const ETC_ALLOWLIST: readonly string[] = [
  'alternatives', 'bash.bashrc', 'bindresvport.blacklist', 'ca-certificates.conf', 'debian_version', 'ethertypes',
  'gai.conf', 'host.conf', 'inputrc', 'issue', 'issue.net', 'java-*', 'ld.so.cache', 'ld.so.conf', 'ld.so.conf.d',
  'locale.alias', 'locale.gen', 'localtime', 'login.defs', 'magic', 'magic.mime', 'manpath.config', 'mime.types',
  'networks', 'nsswitch.conf', 'os-release', 'perl', 'profile', 'profile.d', 'protocols', 'python3', 'python3.*',
  'resolv.conf', 'rpc', 'services', 'shells', 'skel', 'ssh/ssh_config', 'ssh/ssh_config.d', 'ssl/certs',
  'ssl/openssl.cnf', 'terminfo', 'timezone', 'vim', 'xattr.conf',
];

/** Top-level names that merged-usr systems make symlinks into `/usr`; real directories become their own tree. */
const USR_LINKS = ['bin', 'sbin', 'lib', 'lib32', 'lib64', 'libx32'];

/** Where the host base reads the host from (tests point these at fixtures). */
export interface HostSources {
  /** Host `/etc` (default `/etc`). */
  etc?: string;
  /** Host root holding `/usr` and the merged-usr links (default `/`). */
  root?: string;
}

/**
 * Builds the host base in `dir` (emptied first, mode 0700: only host root reaches what is below): a skeleton root
 * at `dir/root` with a filtered `/etc` (ETC_ALLOWLIST), a generated `passwd`/`group` (system accounts without
 * passwords, plus `sprite` uid/gid 1001 home `/home/sprite`, a member of `sudo` and `users`), `/home/sprite` (owned
 * 1001:1001, 0755), `/root` 0700, `/tmp` and `/var/tmp` 1777, empty mount points (`/usr`, `/proc`, `/dev`, `/.sprite/…`) and the merged-usr
 * symlinks. Resolves with the trees: `/` from the skeleton, `/usr` from the host (plus any of `/bin`, `/lib*` that is
 * a real directory on the host), each host tree with the whiteouts (`dir/hidden/<name>`, hidden.ts) of what not
 * every host user may read there, so a sprite sees of the host only that, even as root.
 * Needs root to chown `/home/sprite` and to make whiteouts. Takes about half a second (the walk of the host's `/usr`,
 * which runs while the skeleton is built); call it once per server. What changes on the host later is seen as the
 * walk found it: a root-only file added after the start is visible to a sprite's root until the next start.
 * @deviation a root-only file or private directory of the host's trees is absent inside, even to root (docs/fidelity.md).
 * @see docs/sandbox.md (a sprite's root filesystem)
 */
export async function prepareHostBase(dir: string, sources: HostSources = {}): Promise<BaseRoot> {
  const hostRoot = sources.root ?? '/';
  const hostEtc = sources.etc ?? join(hostRoot, 'etc');
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
  const root = join(dir, 'root');
  await mkdir(root, { mode: 0o755 });
  const trees: RootTree[] = [{ target: '/', lower: root, name: 'root' }, { target: '/usr', lower: join(hostRoot, 'usr'), name: 'usr' }];
  for (const name of USR_LINKS) {
    const st = await lstat(join(hostRoot, name)).catch(() => undefined);
    if (st?.isSymbolicLink()) await symlink(await readlink(join(hostRoot, name)), join(root, name));
    else if (st?.isDirectory()) trees.push({ target: `/${name}`, lower: join(hostRoot, name), name });
  }
  // The walks of the host trees (the slow part) run while the skeleton is built.
  const hostTrees = trees.slice(1);
  const walks = hostTrees.map((t) => findUnreadable(t.lower));
  walks.forEach((w) => w.catch(() => undefined));
  for (const t of hostTrees) await mkdir(join(root, t.target), { mode: 0o755 });
  await makeSkeleton(root);
  await copyEtc(hostEtc, join(root, 'etc'));
  await writeFile(join(root, 'etc/passwd'), accountsFile(await readFile(join(hostEtc, 'passwd'), 'utf8').catch(() => ''), 'passwd'));
  await writeFile(join(root, 'etc/group'), accountsFile(await readFile(join(hostEtc, 'group'), 'utf8').catch(() => ''), 'group'));
  await writeFile(join(root, 'etc/hostname'), 'localhost\n');
  await writeFile(join(root, 'etc/hosts'), hostsFile('localhost'));
  await rm(join(root, 'etc/mtab'), { force: true });
  await symlink('../proc/self/mounts', join(root, 'etc/mtab'));
  for (const [i, t] of hostTrees.entries()) {
    const rels = await walks[i]!;
    if (rels.length) t.hidden = await buildWhiteouts(t.lower, join(dir, 'hidden', t.name), rels);
  }
  return { kind: 'host', trees };
}

/**
 * A prepared root (`--sandbox-root DIR`, e.g. built by `npm run rootfs`) used as the single lower layer.
 * Rejects when `dir` has no `/bin/sh` (it cannot be a root filesystem).
 */
export async function usePreparedRoot(dir: string): Promise<BaseRoot> {
  const sh = await lstat(join(dir, 'bin/sh')).catch(() => lstat(join(dir, 'usr/bin/sh')).catch(() => undefined));
  if (!sh) throw new Error(`--sandbox-root ${dir}: not a root filesystem (no /bin/sh)`);
  return { kind: 'prepared', trees: [{ target: '/', lower: dir, name: 'root' }] };
}

/**
 * Seeds an empty layer directory for `base`: `<layer>/<tree>/upper` and `work` for every tree, and a
 * `/usr/local` (with its subdirectories two levels down) owned by the sprite user, so `npm -g`, `make install`
 * or `pip` can write there. Run once into a template that each new layer copies or snapshots.
 */
export async function seedLayer(layerDir: string, base: BaseRoot): Promise<void> {
  for (const t of base.trees) {
    await mkdir(join(layerDir, t.name, 'upper'), { recursive: true, mode: 0o755 });
    await mkdir(join(layerDir, t.name, 'work'), { recursive: true, mode: 0o700 });
  }
  const usr = base.trees.find((t) => t.target === '/usr');
  const root = base.trees[0]!;
  const [lowerLocal, upperLocal] = usr
    ? [join(usr.lower, 'local'), join(layerDir, usr.name, 'upper/local')]
    : [join(root.lower, 'usr/local'), join(layerDir, root.name, 'upper/usr/local')];
  if (!usr) await mkdir(join(layerDir, root.name, 'upper/usr'), { mode: 0o755 }).catch(ignoreExists);
  await mirrorDirs(lowerLocal, upperLocal, 2);
}

/**
 * Makes a freshly copied layer the sprite `name`'s: `/etc/hostname` and `/etc/hosts` name it, and on a prepared
 * root `passwd`/`group` gain what the sprite user lacks there (its entry, its group, its membership of `sudo` and
 * `users`: sprite-accounts.ts) and `/home/sprite` is created when missing.
 * @see docs/sandbox.md (the hostname is the sprite's name)
 */
export async function personalizeLayer(layerDir: string, base: BaseRoot, name: string): Promise<void> {
  const root = base.trees[0]!;
  const etc = join(layerDir, root.name, 'upper/etc');
  await mkdir(etc, { recursive: true, mode: 0o755 });
  await writeFile(join(etc, 'hostname'), `${name}\n`);
  await writeFile(join(etc, 'hosts'), hostsFile(name));
  if (base.kind !== 'prepared') return;
  for (const kind of ['passwd', 'group'] as const) {
    const text = await readFile(join(root.lower, 'etc', kind), 'utf8').catch(() => '');
    const wanted = accountsFile(text, kind, true);
    if (wanted !== text) await writeFile(join(etc, kind), wanted);
  }
  if (!(await lstat(join(root.lower, SPRITE_HOME)).catch(() => undefined))) {
    const home = join(layerDir, root.name, 'upper', SPRITE_HOME);
    await mkdir(home, { recursive: true, mode: 0o755 });
    await chownIfRoot(home, SPRITE_UID, SPRITE_GID);
  }
}

/** `/etc/hosts` of a sprite named `name` (loopback only: the sprite's network has nothing else). */
export function hostsFile(name: string): string {
  return `127.0.0.1\tlocalhost\n127.0.1.1\t${name}\n::1\tlocalhost ip6-localhost ip6-loopback\n`;
}

/**
 * A `passwd` or `group` file for sprites from the host's (or a prepared root's) `text`. Host mode keeps system
 * entries only (id < 1000, and 65534 `nobody`/`nogroup`), with the password field `x` and empty group member
 * lists (no host user exists inside), then adds the sprite user (`sprite:x:1001:1001::/home/sprite:/bin/bash`, its
 * group `sprite:x:1001:`) and makes it a member of `sudo` and `users` (`sudo:x:27:sprite`), as production's image
 * has them. `keepAll` (prepared roots) keeps every entry as is and adds only what the sprite user lacks.
 */
export function accountsFile(text: string, kind: 'passwd' | 'group', keepAll = false): string {
  if (keepAll) return kind === 'passwd' ? withSpritePasswd(text) : withSpriteGroups(text);
  const rows = text.split('\n').filter((l) => l && !l.startsWith('#')).map((l) => l.split(':'));
  const kept = rows.filter((f) => {
    const id = Number(f[2]);
    return f.length >= 4 && f[0] !== 'sprite' && Number.isInteger(id) && (id < FIRST_USER_ID || id === 65534);
  });
  const out = kept.map((f) => {
    const g = [...f];
    g[1] = 'x';
    if (kind === 'group') g[3] = '';
    return g.join(':');
  });
  const generated = out.map((l) => `${l}\n`).join('');
  return kind === 'passwd' ? withSpritePasswd(generated) : withSpriteGroups(generated);
}

async function makeSkeleton(dir: string): Promise<void> {
  const dirs: Array<[string, number]> = [
    ['etc', 0o755], ['home', 0o755], ['home/sprite', 0o755], ['root', 0o700], ['tmp', 0o1777], ['var', 0o755],
    ['var/tmp', 0o1777], ['var/log', 0o755], ['var/cache', 0o755], ['var/lib', 0o755], ['run', 0o755],
    ['proc', 0o555], ['dev', 0o755], ['sys', 0o555], ['mnt', 0o755], ['srv', 0o755], ['opt', 0o755],
    ['.sprite', 0o755], ['.sprite/bin', 0o755], ['.sprite/agent', 0o755], ['.sprite/run', 0o755],
  ];
  for (const [d, mode] of dirs) {
    await mkdir(join(dir, d), { recursive: true });
    await chmod(join(dir, d), mode);
  }
  await writeFile(join(dir, '.sprite/bin/node'), '', { mode: 0o755 });
  await chownIfRoot(join(dir, 'home/sprite'), SPRITE_UID, SPRITE_GID);
}

function allowed(rel: string): boolean {
  return ETC_ALLOWLIST.some((a) => (a.endsWith('*') ? rel.startsWith(a.slice(0, -1)) && !rel.includes('/') : rel === a));
}

/** Copies the allowlisted entries of `src` (a host `/etc`) into `dest`, world-readable ones only. */
async function copyEtc(src: string, dest: string): Promise<void> {
  const names = await readdir(src).catch(() => [] as string[]);
  const wanted = new Set<string>();
  for (const name of names) if (allowed(name)) wanted.add(name);
  for (const a of ETC_ALLOWLIST) if (a.includes('/')) wanted.add(a);
  for (const rel of [...wanted].sort()) {
    const parent = posix.dirname(rel);
    if (parent !== '.') {
      const pst = await lstat(join(src, parent)).catch(() => undefined);
      if (!pst?.isDirectory() || (pst.mode & 0o005) !== 0o005) continue;
      await mkdir(join(dest, parent), { recursive: true, mode: pst.mode & 0o7777 });
    }
    await copyTree(join(src, rel), join(dest, rel));
  }
}

/** Copies files, directories and symlinks (verbatim) that others may read; skips everything else. */
async function copyTree(src: string, dest: string): Promise<void> {
  const st = await lstat(src).catch(() => undefined);
  if (!st) return;
  const mode = st.mode & 0o7777;
  if (st.isSymbolicLink()) return symlink(await readlink(src), dest);
  if (st.isFile() && mode & 0o004) {
    await copyFile(src, dest, fsc.COPYFILE_FICLONE);
    return chmod(dest, mode);
  }
  if (!st.isDirectory() || (mode & 0o005) !== 0o005) return;
  await mkdir(dest, { mode });
  await chmod(dest, mode);
  for (const name of await readdir(src)) await copyTree(join(src, name), join(dest, name));
}

/**
 * Recreates the directories of `src` (down to `depth` levels) in `dest`, owned by the sprite user. Only those every
 * host user may read and search: a private host directory mirrored sprite-owned would merge with the host's and
 * list its contents to the sprite user (and the base hides it anyway, hidden.ts).
 */
async function mirrorDirs(src: string, dest: string, depth: number): Promise<void> {
  const st = await lstat(src).catch(() => undefined);
  const open = st?.isDirectory() && (st.mode & 0o005) === 0o005;
  await mkdir(dest, { recursive: true });
  await chmod(dest, open ? st!.mode & 0o7777 : 0o755);
  await chownIfRoot(dest, SPRITE_UID, SPRITE_GID);
  if (!open || depth <= 0) return;
  for (const e of await readdir(src, { withFileTypes: true })) {
    if (!e.isDirectory()) continue;
    const sub = await lstat(join(src, e.name));
    if ((sub.mode & 0o005) === 0o005) await mirrorDirs(join(src, e.name), join(dest, e.name), depth - 1);
  }
}

async function chownIfRoot(path: string, uid: number, gid: number): Promise<void> {
  if (process.getuid?.() === 0) await chown(path, uid, gid);
}

function ignoreExists(err: NodeJS.ErrnoException): void {
  if (err.code !== 'EEXIST') throw err;
}
