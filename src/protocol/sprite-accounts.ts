/**
 * The `sprite` user's entries in a sprite's `/etc/passwd` and `/etc/group`, as production's image has them after
 * `useradd -ms /bin/bash -u 1001 sprite` and `usermod -aG sudo,users sprite`: a passwd line with an empty comment
 * field, its own group `sprite`, and membership of `sudo` (27) and `users` (100). Pure text functions: the sandbox
 * engine applies them to the accounts files it generates (sandbox/rootfs.ts), the agent to a container image's
 * (agent/accounts.ts), the shell engine seeds the same lines (memory/accounts.ts). No dependencies but
 * sprite-tree.ts: the agent bundle and the server both import it.
 * @see passwd(5), group(5), useradd(8) (`-m`, no `-c`: the comment field stays empty), usermod(8) `-aG`
 */
import { SPRITE_GID, SPRITE_HOME, SPRITE_SUPPLEMENTARY_GROUPS, SPRITE_UID, SPRITE_USER } from './sprite-tree.ts';

/** The sprite user's `/etc/passwd` line: `sprite:x:1001:1001::/home/sprite:/bin/bash`. */
export const SPRITE_PASSWD_LINE = `${SPRITE_USER}:x:${SPRITE_UID}:${SPRITE_GID}::${SPRITE_HOME}:/bin/bash`;
/** The sprite user's own group's `/etc/group` line: `sprite:x:1001:`. */
export const SPRITE_GROUP_LINE = `${SPRITE_USER}:x:${SPRITE_GID}:`;

/** The lines of an accounts file, without the empty one after its last newline. */
function lines(text: string): string[] {
  const out = text.split('\n');
  if (out.at(-1) === '') out.pop();
  return out;
}

/** `lines` as a file: one line each, each ending in a newline. */
const file = (rows: string[]): string => rows.map((l) => `${l}\n`).join('');

/**
 * `passwdText` with the sprite user: unchanged when an entry named `sprite` is there, else with
 * {@link SPRITE_PASSWD_LINE} appended (as useradd appends). Always ends in a newline.
 */
export function withSpritePasswd(passwdText: string): string {
  const rows = lines(passwdText);
  if (!rows.some((l) => l.startsWith(`${SPRITE_USER}:`))) rows.push(SPRITE_PASSWD_LINE);
  return file(rows);
}

/**
 * `groupText` with the sprite user's groups: `sprite` added as the last member of each supplementary group
 * (`sudo:x:27:` → `sudo:x:27:sprite`, `users:x:100:bob` → `users:x:100:bob,sprite`, as `usermod -aG` does; a group
 * that is missing is appended with `sprite` alone), then {@link SPRITE_GROUP_LINE} appended when no group named
 * `sprite` is there. A line that already lists `sprite` is left as it is. Always ends in a newline.
 */
export function withSpriteGroups(groupText: string): string {
  const rows = lines(groupText);
  for (const g of SPRITE_SUPPLEMENTARY_GROUPS) {
    const i = rows.findIndex((l) => l.startsWith(`${g.name}:`));
    if (i < 0) {
      rows.push(`${g.name}:x:${g.gid}:${SPRITE_USER}`);
      continue;
    }
    const f = rows[i]!.split(':');
    while (f.length < 4) f.push('');
    const members = f[3]!.split(',').filter((m) => m !== '');
    if (!members.includes(SPRITE_USER)) f[3] = [...members, SPRITE_USER].join(',');
    rows[i] = f.join(':');
  }
  if (!rows.some((l) => l.startsWith(`${SPRITE_USER}:`))) rows.push(SPRITE_GROUP_LINE);
  return file(rows);
}
