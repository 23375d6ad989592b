/**
 * The sprite user's accounts in the sprite's own `/etc/passwd` and `/etc/group`, made sure of by the agent (as root)
 * when it starts: a container's image is any image with `node`, whose files may lack the `sprite` user (a `node:22`
 * image has `node` at uid 1000 and nothing at 1001) or its membership of `sudo` and `users`, and `id`, `ls -l`,
 * `whoami` and sudo name users from these files. What is missing is added (src/protocol/sprite-accounts.ts: the
 * entry `sprite:x:1001:1001::/home/sprite:/bin/bash`, the group `sprite:x:1001:`, `sprite` appended to the members
 * of `sudo` and `users`); an entry already there is left as it is, and a file that needs nothing is not written (a
 * sandbox's generated files, a prepared image's). It owns these two files' edit; it creates no home directory.
 */
import * as fsp from 'node:fs/promises';
import { withSpriteGroups, withSpritePasswd } from '../protocol/sprite-accounts.ts';
import type { AgentFs } from './fs-ops.ts';

/** The accounts files and the edit each gets. */
const FILES: ReadonlyArray<readonly [string, (text: string) => string]> = [
  ['/etc/passwd', withSpritePasswd],
  ['/etc/group', withSpriteGroups],
];

/**
 * Install steps (name, action) that add what the sprite user lacks to `/etc/passwd` and `/etc/group` under `root`
 * (the host path of the sprite's `/`: '' inside a sprite), written through `fs` without following a link planted at
 * the path, keeping the file's mode (0644 when the file is missing). Each step rejects with the fs error.
 */
export function spriteAccountSteps(fs: AgentFs, root = ''): Array<[string, () => Promise<unknown>]> {
  return FILES.map(([path, edit]) => [path, async () => {
    const st = await fsp.lstat(`${root}${path}`).catch(() => undefined);
    // A link or a non-file there is the image's business: the user's entries are then not ours to add.
    if (st && !st.isFile()) return;
    const text = st ? await fsp.readFile(`${root}${path}`, 'utf8') : '';
    const wanted = edit(text);
    if (wanted !== text) await fs.writeFile(path, Buffer.from(wanted), { mode: st ? st.mode & 0o7777 : 0o644, noFollow: true });
  }]);
}
