/**
 * The Linux tree a new in-memory sprite starts with, on top of `Vfs.skeleton` (`/home/sprite`, `/tmp`): the
 * directories a Linux user expects (`/usr/bin`, `/usr/sbin`, `/usr/local/bin`, `/usr/local/sbin` — the ones on its
 * `PATH` —, `/usr/lib`, `/usr/lib64`, `/usr/share`, `/etc`, `/var/tmp`, `/var/log`, `/var/cache`, `/var/lib`,
 * `/root`, `/opt`, `/srv`, `/mnt`, `/run`, as the sandbox engine's skeleton has them), the merged-`/usr` links of
 * Debian and Ubuntu (`/bin` → `usr/bin`, `/sbin` → `usr/sbin`, `/lib` → `usr/lib`, `/lib64` → `usr/lib64`), the small `/etc` files scripts read (`hostname`, `passwd`, `group`, `hosts`, `os-release`, `shells`), and the `/.sprite` tree
 * (`llm.txt`, `version.txt`, `docs/`, `bin/sprite-env`, `bin/curl-sprite-api`, `bin/sprite-browser` (also in
 * `/usr/local/bin`), `logs/services`; src/protocol/sprite-tree.ts, src/protocol/sprite-docs.ts). It does not
 * hold the command stubs under `/bin` or the devices under `/dev`: `BashFs` serves those as read-only views.
 * Scripts that read `/etc/passwd`, `hostname` or `/etc/os-release` get what a Linux sprite gives them.
 * @see docs/wire-reference.md §13 (the `sprite` user, uid/gid 1001)
 */
import { Vfs, type VfsSnapshot } from './vfs.ts';
import { LLM_TXT, LLM_TXT_PATH, LOGS_DIR, SPRITE_BIN_DIR, SPRITE_BROWSER_PATHS, SPRITE_BROWSER_SCRIPT, SPRITE_GID, SPRITE_UID, VERSION_PATH, VERSION_TEXT } from '../../../protocol/sprite-tree.ts';
import { MEMORY_LANGUAGES_MD, SPRITE_DOCS_DIR, spriteDocs } from '../../../protocol/sprite-docs.ts';
import { GROUP, PASSWD } from './accounts.ts';

/** Directories created root-owned, mode 0755 unless given; `/var/tmp` is world-writable and sticky like `/tmp`. */
const DIRECTORIES: ReadonlyArray<readonly [string, number]> = [
  ['/usr', 0o755],
  ['/usr/bin', 0o755],
  ['/usr/sbin', 0o755],
  ['/usr/lib', 0o755],
  ['/usr/lib64', 0o755],
  ['/usr/share', 0o755],
  ['/usr/local', 0o755],
  ['/usr/local/bin', 0o755],
  ['/usr/local/sbin', 0o755],
  ['/etc', 0o755],
  ['/var', 0o755],
  ['/var/tmp', 0o1777],
  ['/var/log', 0o755],
  ['/var/cache', 0o755],
  ['/var/lib', 0o755],
  ['/root', 0o700],
  ['/opt', 0o755],
  ['/srv', 0o755],
  ['/mnt', 0o755],
  ['/run', 0o755],
  // The platform's own tree (docs/wire-reference.md §12): root's, readable by the sprite user.
  ['/.sprite', 0o755],
  [SPRITE_BIN_DIR, 0o755],
  [SPRITE_DOCS_DIR, 0o755],
  ['/.sprite/logs', 0o755],
];

/**
 * The top-level links of a merged-`/usr` system (Debian 12, Ubuntu since 19.04: usrmerge), root's: `readlink /bin`
 * is `usr/bin`, so `/bin/ls` and `/usr/bin/ls` are one file.
 */
const MERGED_USR_LINKS: ReadonlyArray<readonly [string, string]> = [
  ['/bin', 'usr/bin'],
  ['/sbin', 'usr/sbin'],
  ['/lib', 'usr/lib'],
  ['/lib64', 'usr/lib64'],
];


/**
 * `/.sprite/bin/sprite-env` on the in-memory engines: a script handing its arguments to the engine's own
 * `sprite-env` command, which answers through the in-sprite API (src/server/machines/memory/sprite-env-command.ts).
 * It names the `/usr/bin` stub by its path: `/.sprite/bin` is on PATH, so a bare `sprite-env` could find the script
 * itself again and recurse.
 */
export const MEMORY_SPRITE_ENV_SCRIPT = '#!/bin/sh\nexec /usr/bin/sprite-env "$@"\n';

/** `/.sprite/bin/curl-sprite-api` on the in-memory engines: hands its arguments to the engine's own command (by path, as above). */
export const MEMORY_CURL_SPRITE_API_SCRIPT = '#!/bin/sh\nexec /usr/bin/curl-sprite-api "$@"\n';

/**
 * The `/etc/os-release` of the emulated sprite: Ubuntu 25.10, the OS of new real sprites (docs/wire-reference.md
 * §13), with `VARIANT_ID=spritzer` so a script can tell the emulator apart.
 * @deviation The real image holds the full Ubuntu userland; here only this file says so.
 */
export const OS_RELEASE = [
  'PRETTY_NAME="Ubuntu 25.10"',
  'NAME="Ubuntu"',
  'VERSION_ID="25.10"',
  'VERSION="25.10 (Questing Quokka)"',
  'VERSION_CODENAME=questing',
  'ID=ubuntu',
  'ID_LIKE=debian',
  'VARIANT="spritzer shell engine"',
  'VARIANT_ID=spritzer',
  '',
].join('\n');

/** `/etc/shells`: the login shells debianutils' `add-shell` lists on a Debian or Ubuntu system with bash and dash. */
export const SHELLS = ['# /etc/shells: valid login shells', '/bin/sh', '/usr/bin/sh', '/bin/bash', '/usr/bin/bash', '/bin/rbash', '/usr/bin/rbash', '/bin/dash', '/usr/bin/dash', ''].join('\n');

/** `/etc/passwd` and `/etc/group` (accounts.ts). */
export { GROUP, PASSWD };

/**
 * Adds the Linux directories and `/etc` files to a fresh sprite tree (as `Vfs.skeleton` returns it) and returns
 * the same `vfs`. `hostname` is the sprite's name (written to `/etc/hostname` and `/etc/hosts`). Everything is
 * owned by root (uid/gid 0); files are 0644. Throws what the VFS throws (nothing on a fresh tree; ENOSPC only
 * with a quota under a few hundred bytes).
 * @see docs/fidelity.md "shell engine"
 */
export function seedLinuxTree(vfs: Vfs, hostname: string): Vfs {
  return seedHostFiles(seedCommonTree(vfs), hostname);
}

/** The directories and the `/etc` files every sprite has alike (everything but the two that name the host). */
function seedCommonTree(vfs: Vfs): Vfs {
  for (const [dir, mode] of DIRECTORIES) {
    vfs.mkdir(dir, { recursive: true, mode });
    vfs.chown(dir, 0, 0);
  }
  for (const [link, target] of MERGED_USR_LINKS) {
    vfs.symlink(target, link, { uid: 0, gid: 0 });
  }
  // The service logs are the sprite user's (as the agent makes them on the real engines).
  vfs.mkdir(LOGS_DIR, { recursive: true, mode: 0o755 });
  vfs.chown(LOGS_DIR, SPRITE_UID, SPRITE_GID);
  const files: Array<[string, string, number]> = [
    ['/etc/passwd', PASSWD, 0o644],
    ['/etc/group', GROUP, 0o644],
    ['/etc/shells', SHELLS, 0o644],
    ['/etc/os-release', OS_RELEASE, 0o644],
    [VERSION_PATH, `${VERSION_TEXT}\n`, 0o644],
    [LLM_TXT_PATH, LLM_TXT, 0o644],
    [`${SPRITE_BIN_DIR}/sprite-env`, MEMORY_SPRITE_ENV_SCRIPT, 0o755],
    [`${SPRITE_BIN_DIR}/curl-sprite-api`, MEMORY_CURL_SPRITE_API_SCRIPT, 0o755],
    ...SPRITE_BROWSER_PATHS.map((path): [string, string, number] => [path, SPRITE_BROWSER_SCRIPT, 0o755]),
    ...spriteDocs(MEMORY_LANGUAGES_MD).map(([path, text]): [string, string, number] => [path, text, 0o644]),
  ];
  for (const [path, content, mode] of files) {
    vfs.writeFile(path, content, { mode });
    vfs.chown(path, 0, 0);
  }
  return vfs;
}

/** `/etc/hostname` and `/etc/hosts` for `hostname`, root-owned, 0644. */
function seedHostFiles(vfs: Vfs, hostname: string): Vfs {
  const files: Array<[string, string]> = [
    ['/etc/hostname', `${hostname}\n`],
    ['/etc/hosts', `127.0.0.1\tlocalhost\n127.0.1.1\t${hostname}\n::1\tlocalhost ip6-localhost ip6-loopback\n`],
  ];
  for (const [path, content] of files) {
    vfs.writeFile(path, content);
    vfs.chown(path, 0, 0);
  }
  return vfs;
}

/** The common tree of each clock (one per machine factory), built on its first sprite and shared by the rest. */
const commonTrees = new WeakMap<object, VfsSnapshot>();

/**
 * A new sprite's disk: the same tree as `seedLinuxTree(Vfs.skeleton(now, limits), hostname)`, but the part every
 * sprite has alike is built once per `owner` (the factory's clock) and shared, since VFS trees are immutable and
 * copied on write: a sprite then holds only its own `/`, `/etc` and host files (about 10 KiB of heap per sprite;
 * docs/performance.md "A quiet-machine run, before and after"). The shared directories keep the times of the first
 * sprite made with `owner`.
 * @deviation The base directories' mtimes are those of the first sprite's creation, as an image's are its build time.
 */
export function newLinuxTree(hostname: string, now: () => number, owner: object, limits: { quotaBytes?: number; quotaFiles?: number } = {}): Vfs {
  let common = commonTrees.get(owner);
  if (!common) {
    common = seedCommonTree(Vfs.skeleton(now)).snapshot();
    commonTrees.set(owner, common);
  }
  return seedHostFiles(new Vfs({ now, root: common, ...limits }), hostname);
}
