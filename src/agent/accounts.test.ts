import { afterEach, describe, expect, it } from 'vitest';
import { chmod, mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentFs } from './fs-ops.ts';
import { spriteAccountSteps } from './accounts.ts';

let root = '';
afterEach(async () => {
  if (root) await rm(root, { recursive: true, force: true });
  root = '';
});

/** A sprite root whose /etc holds `files`, and the steps run on it. */
async function install(files: Record<string, string>): Promise<string> {
  root = await mkdtemp(join(tmpdir(), 'spritzer-accounts-'));
  await mkdir(join(root, 'etc'));
  for (const [name, text] of Object.entries(files)) await writeFile(join(root, 'etc', name), text);
  return root;
}
const run = async () => {
  for (const [, step] of spriteAccountSteps(new AgentFs(root, null), root)) await step();
};

// A node:22 image (Debian): `node` is uid 1000, sudo and users have no members.
describe('the agent adds the sprite user to an image\'s accounts', () => {
  it('appends the user and its group, and makes it a member of sudo and users, keeping the files\' modes', async () => {
    await install({ passwd: 'root:x:0:0:root:/root:/bin/bash\nnode:x:1000:1000::/home/node:/bin/bash\n', group: 'root:x:0:\nsudo:x:27:\nusers:x:100:\nnode:x:1000:\n' });
    await chmod(join(root, 'etc/group'), 0o640);
    await run();
    expect(await readFile(join(root, 'etc/passwd'), 'utf8')).toBe('root:x:0:0:root:/root:/bin/bash\nnode:x:1000:1000::/home/node:/bin/bash\nsprite:x:1001:1001::/home/sprite:/bin/bash\n');
    expect(await readFile(join(root, 'etc/group'), 'utf8')).toBe('root:x:0:\nsudo:x:27:sprite\nusers:x:100:sprite\nnode:x:1000:\nsprite:x:1001:\n');
    expect((await stat(join(root, 'etc/group'))).mode & 0o7777).toBe(0o640);
  });

  it('writes nothing when the image has them all, and leaves a link alone', async () => {
    await install({ passwd: 'sprite:x:1001:1001::/home/sprite:/bin/bash\n', group: 'sudo:x:27:sprite\nusers:x:100:sprite\nsprite:x:1001:\n' });
    const before = await stat(join(root, 'etc/passwd'));
    await rm(join(root, 'etc/group'));
    await writeFile(join(root, 'elsewhere'), 'x:x:1:\n');
    await symlink('../elsewhere', join(root, 'etc/group'));
    await run();
    expect((await stat(join(root, 'etc/passwd'))).mtimeMs).toBe(before.mtimeMs);
    expect(await readFile(join(root, 'elsewhere'), 'utf8')).toBe('x:x:1:\n');
  });
});
