/**
 * Who a shell-engine command runs as, and what that user may do with a file: the sprite user (uid/gid 1001, also in
 * the groups sudo and users), or root
 * under `sudo` (gnu-commands.ts), which marks its command's environment as sudo(8) does (SUDO_UID set, USER=root).
 * It owns the permission arithmetic of access(2) for those two users; which operations ask is bash-fs.ts's.
 */
import { SPRITE_UID } from '../../../../protocol/sprite-tree.ts';
import { spriteUserInGroup } from '../accounts.ts';

/**
 * Whether a command with environment `env` runs as root: it runs under `sudo`.
 * @deviation The mark is the environment alone, so a script that sets `SUDO_UID` and `USER=root` itself acts as
 * root on the sprite's files (on a sprite only sudo's setuid grants it).
 */
export function runsAsRoot(env: ReadonlyMap<string, string>): boolean {
  return env.get('SUDO_UID') !== undefined && env.get('USER') === 'root';
}

/**
 * The variable that marks a shell as answering file tests (`test -r/-w/-x`) with access(2)'s real-id rule rather
 * than faccessat(AT_EACCESS)'s: coreutils' `test` run as a program asks euidaccess(3), which glibc answers with
 * access(2) when the real and effective ids agree, and access(2) drops the capabilities of a user other than root;
 * bash's builtin asks with AT_EACCESS, which counts them (test-commands.ts sets it for the builtin it runs).
 */
export const REAL_ACCESS_VARIABLE = '__spritzer_access_real_ids';

/** What access(2) looks at: permission bits (with type bits or not), owner and group. */
export interface Owned {
  mode: number;
  uid: number;
  gid: number;
}

/**
 * The permission bits (rwx as 4/2/1) the user has on `st`: the owner's bits when the sprite user owns it, the
 * group's when the file's group is one of the user's (`sprite`, `sudo`, `users`), else the others'. Root may read and write anything, and execute (or
 * search) what has any x bit or is a directory.
 */
export function accessBits(st: Owned, asRoot: boolean, isDirectory: boolean): number {
  if (asRoot) return 6 | (isDirectory || (st.mode & 0o111) !== 0 ? 1 : 0);
  if (st.uid === SPRITE_UID) return (st.mode >> 6) & 7;
  if (spriteUserInGroup(st.gid)) return (st.mode >> 3) & 7;
  return st.mode & 7;
}
