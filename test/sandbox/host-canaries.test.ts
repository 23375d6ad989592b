/**
 * A sandbox sprite sees of the host only what every host user may read. Before the server starts, the test plants
 * root-only canaries in every host tree a sprite sees (the host's `/usr` and its `/usr/local`, the allowlisted parts
 * of `/etc`, any real `/bin` or `/lib*` directory, the node-pty directory bound for the agent): a 0700 directory
 * holding a 0600 file and a 0644 one, a 0640 file of root and another group, a 0700 directory of another host uid,
 * and a 0600 file in a world-readable directory. Each is probed from inside as the sprite user, as the agent's root,
 * through `sudo`, and as the canary's own uid (`sudo -u '#<uid>'`, `setpriv`): none of their names or contents shows;
 * a 0644 file beside them does. The canaries are removed afterwards, even when a test fails.
 * Skips with the reason printed where the sandbox cannot run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { chown, lstat, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { agentFiles } from '../../src/server/machines/agent/bundle.ts';
import { agentBundle } from '../support/agent.ts';
import { SandboxMachineFactory, type SandboxMachine } from '../../src/server/machines/sandbox/sandbox-machine.ts';
import { announceSkip, exec, execAsRoot, execViaSudo } from './support.ts';

const skip = announceSkip('host canary tests');

const id = randomUUID().slice(0, 8);
/** The canaries' names (in world-readable directories: every host user may list them). */
const NAME = `spritzer-canary-${id}`;
/** Every canary's content, and every name inside a private directory, carries this: seeing it inside is the leak. */
const SECRET = `secret-${id}`;
/** A host uid and a host gid that are neither root nor the sprite's. */
const OTHER_UID = 4242;
const OTHER_GID = 4;
const AGENT_PTY = '/.sprite/agent/node_modules/node-pty';

/** A host directory a sprite sees, and where it sees it. */
interface Tree {
  host: string;
  inside: string;
}

/** The canaries of one tree (paths relative to it), made by host root. */
async function plant(dir: string): Promise<string[]> {
  const made = [`${NAME}-dir`, `${NAME}-group`, `${NAME}-svc`, `${NAME}-key`, `${NAME}-public`].map((n) => join(dir, n));
  const [priv, group, svc, key, pub] = made as [string, string, string, string, string];
  await mkdir(priv, { mode: 0o700 });
  await writeFile(join(priv, `${SECRET}-file`), `${SECRET} private\n`, { mode: 0o600 });
  await writeFile(join(priv, `${SECRET}-open`), `${SECRET} open file in a private dir\n`, { mode: 0o644 });
  await writeFile(group, `${SECRET} group\n`, { mode: 0o640 });
  await chown(group, 0, OTHER_GID);
  await mkdir(svc, { mode: 0o700 });
  await writeFile(join(svc, `${SECRET}-file`), `${SECRET} service\n`, { mode: 0o600 });
  await chown(join(svc, `${SECRET}-file`), OTHER_UID, OTHER_UID);
  await chown(svc, OTHER_UID, OTHER_UID);
  await writeFile(key, `${SECRET} key\n`, { mode: 0o600 });
  await writeFile(pub, `public-${id}\n`, { mode: 0o644 });
  return made;
}

/**
 * A script that tries every canary of `tree` (inside paths): lists and reads each, also as their owner's uid, and
 * prints the public file after a marker. `asOther` is how the script becomes OTHER_UID. Only stdout is checked: an
 * error message names the path it was asked for, a listing or a read names what it found.
 */
function probe(tree: Tree, asOther: string): string {
  const at = (n: string) => `${tree.inside}/${NAME}-${n}`;
  const paths = ['dir', 'dir/' + `${SECRET}-file`, 'dir/' + `${SECRET}-open`, 'group', 'svc', `svc/${SECRET}-file`, 'key'].map(at);
  return [
    `echo "== ${tree.inside}"; cat ${at('public')}`,
    ...paths.map((p) => `ls -a ${p}; cat ${p}`),
    `${asOther} ls -a ${at('svc')}; ${asOther} cat ${at('svc')}/${SECRET}-file`,
  ].join('\n');
}

describe.skipIf(skip)('what a sandbox sprite sees of the host', () => {
  let factory: SandboxMachineFactory;
  let sprite: SandboxMachine;
  const planted: string[] = [];
  const trees: Tree[] = [];

  beforeAll(async () => {
    await agentBundle();
    const { nodePtyDir } = await agentFiles();
    const candidates: Tree[] = [
      { host: '/usr/share', inside: '/usr/share' },
      { host: '/usr/lib', inside: '/usr/lib' },
      { host: '/usr/local', inside: '/usr/local' },
      { host: '/usr/local/share', inside: '/usr/local/share' },
      { host: '/etc/ssl/certs', inside: '/etc/ssl/certs' },
      { host: '/etc/profile.d', inside: '/etc/profile.d' },
      ...['bin', 'sbin', 'lib', 'lib32', 'lib64', 'libx32'].map((n) => ({ host: `/${n}`, inside: `/${n}` })),
      ...(nodePtyDir ? [{ host: nodePtyDir, inside: AGENT_PTY }] : []),
    ];
    for (const t of candidates) {
      // A merged-usr link (`/bin` → `usr/bin`) is not a tree of its own: /usr covers it.
      if (!(await lstat(t.host).catch(() => undefined))?.isDirectory()) continue;
      trees.push(t);
      planted.push(...(await plant(t.host)));
    }
    factory = await SandboxMachineFactory.open({ limits: { pids: 512 } });
    sprite = await factory.create({ name: 'canaries', id: 'canaries' });
  });

  afterAll(async () => {
    try {
      await factory?.close();
    } finally {
      for (const p of planted) await rm(p, { recursive: true, force: true });
    }
  });

  const other = `setpriv --reuid=${OTHER_UID} --regid=${OTHER_UID} --clear-groups`;
  it.each([
    // The sprite user cannot reach the agent's files at all (`/.sprite/agent/node_modules` is root's, 0700).
    ['the sprite user', (m: SandboxMachine, s: string) => exec(m, s), `sudo -n -u '#${OTHER_UID}'`, false],
    ['the agent’s root', execAsRoot, other, true],
    ['sudo', execViaSudo, other, true],
  ] as const)('shows %s no canary, and the world-readable file beside them', async (_who, run, asOther, reachesAgent) => {
    expect(trees.map((t) => t.inside)).toEqual(expect.arrayContaining(['/usr/share', '/usr/local', '/etc/ssl/certs']));
    for (const t of trees) {
      const r = await run(sprite, probe(t, asOther));
      expect(r.out, `${t.inside}: ${r.out}`).not.toContain(SECRET);
      if (t.inside !== AGENT_PTY || reachesAgent) expect(r.out, t.inside).toContain(`== ${t.inside}\npublic-${id}\n`);
    }
  });

});
