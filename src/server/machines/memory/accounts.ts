/**
 * The users and groups of an in-memory sprite, one table for every command of the shell engine that names or
 * checks them (`id`, `groups`, `whoami`, `ls -l`, `stat`, `find -user`, `chown`, `ps`, `test -O`, python's `os`,
 * perl's `$(`) and for the `/etc/passwd` and `/etc/group` it seeds (linux-skeleton.ts): root, `nobody`/`nogroup`
 * and the sprite user as production's image has it (uid/gid 1001, a member of `sudo` 27 and `users` 100;
 * src/protocol/sprite-tree.ts). No other account exists in these sprites.
 * @see passwd(5), group(5); docs/fidelity.md "`id`"
 */
import { SPRITE_GID, SPRITE_PROCESS_GROUPS, SPRITE_SUPPLEMENTARY_GIDS, SPRITE_SUPPLEMENTARY_GROUPS, SPRITE_UID, SPRITE_USER } from '../../../protocol/sprite-tree.ts';
import { SPRITE_PASSWD_LINE, withSpriteGroups } from '../../../protocol/sprite-accounts.ts';

/**
 * One user: uid, name, primary gid, the groups `id` lists for it (the primary first, as GNU id prints them) and the
 * supplementary groups its processes hold (what getgroups(2) answers, before the kernel sorts it).
 */
export interface Account {
  uid: number;
  name: string;
  gid: number;
  groups: readonly number[];
  supplementary: readonly number[];
}

/** The sprite's users: root, the sprite user, `nobody`. */
export const ACCOUNTS: readonly Account[] = [
  // Under sudo, which gives root initgroups(3)'s list: its own group.
  { uid: 0, name: 'root', gid: 0, groups: [0], supplementary: [0] },
  // As production starts it: the groups that list it (SPRITE_PROCESS_GROUPS), its own group as its gid only.
  { uid: SPRITE_UID, name: SPRITE_USER, gid: SPRITE_GID, groups: [SPRITE_GID, ...SPRITE_SUPPLEMENTARY_GIDS], supplementary: SPRITE_PROCESS_GROUPS },
  { uid: 65534, name: 'nobody', gid: 65534, groups: [65534], supplementary: [65534] },
];

/** The sprite user's account. */
export const SPRITE_ACCOUNT: Account = ACCOUNTS[1]!;
/** Root's account (what a command under `sudo` runs as). */
export const ROOT_ACCOUNT: Account = ACCOUNTS[0]!;

/** User names by uid (what `ls -l`, `stat -c %U`, `find -printf %u` print). */
export const USER_NAMES: Readonly<Record<number, string>> = Object.fromEntries(ACCOUNTS.map((a) => [a.uid, a.name]));
/** uids by user name (`chown NAME`, `find -user NAME`). */
export const USER_IDS: Readonly<Record<string, number>> = Object.fromEntries(ACCOUNTS.map((a) => [a.name, a.uid]));
/** Group names by gid (`ls -l`'s group column, `stat -c %G`, `id -Gn`). */
export const GROUP_NAMES: Readonly<Record<number, string>> = {
  0: 'root',
  ...Object.fromEntries(SPRITE_SUPPLEMENTARY_GROUPS.map((g) => [g.gid, g.name])),
  65534: 'nogroup',
  [SPRITE_GID]: SPRITE_USER,
};
/** gids by group name (`chgrp NAME`, `find -group NAME`). */
export const GROUP_IDS: Readonly<Record<string, number>> = Object.fromEntries(Object.entries(GROUP_NAMES).map(([gid, name]) => [name, Number(gid)]));

/** The account of `uid`, if the sprite has one. */
export const accountOf = (uid: number): Account | undefined => ACCOUNTS.find((a) => a.uid === uid);

/**
 * Whether a process of the sprite user has group `gid`: its own group or one of its supplementary groups, which
 * access(2) checks alike (a file of group `users` with `g+w` is writable to it).
 */
export const spriteUserInGroup = (gid: number): boolean => SPRITE_ACCOUNT.groups.includes(gid);

/**
 * What getgroups(2) answers for a process of `account` (python's `os.getgroups()`, perl's `$(` after the gid): its
 * supplementary groups, which the kernel keeps sorted (`[27, 100]` for the sprite user, `[0]` for root under sudo).
 */
export const processGroups = (account: Account): number[] => [...account.supplementary].sort((a, b) => a - b);

/**
 * bash's `GROUPS` for a shell of `account`, as bash's initialize_group_array makes it from getgroups(2)'s sorted list:
 * the group id put first when the list lacks it, else swapped with the first entry (`1001 27 100` for the sprite
 * user, `0` for root).
 */
export function bashGroups(account: Account): number[] {
  const out = processGroups(account);
  const at = out.indexOf(account.gid);
  if (at < 0) out.unshift(account.gid);
  else [out[0], out[at]] = [out[at]!, out[0]!];
  return out;
}

/** `/etc/passwd`: root, nobody and the sprite user (`sprite:x:1001:1001::/home/sprite:/bin/bash`). */
export const PASSWD = ['root:x:0:0:root:/root:/bin/bash', 'nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin', SPRITE_PASSWD_LINE, ''].join('\n');

/**
 * `/etc/group`: root, `sudo` and `users` with the sprite user as their member, nogroup, then the sprite user's own
 * group, last as useradd appends it.
 */
export const GROUP = withSpriteGroups(['root:x:0:', ...SPRITE_SUPPLEMENTARY_GROUPS.map((g) => `${g.name}:x:${g.gid}:`), 'nogroup:x:65534:', ''].join('\n'));
