/**
 * Builds a prepared root for the sandbox engine (`--sandbox-root DIR`) with debootstrap: Debian bookworm, variant
 * minbase, from the mirror the host's apt uses, plus what a sprite needs (the `sprite` user, uid/gid 1001, a member
 * of `sudo` and `users`, home `/home/sprite`; the agent's mount points under `/.sprite`). It prints debootstrap's progress as it goes. It owns
 * the build only; the engine (src/server/machines/sandbox/rootfs.ts) uses the result read-only.
 * Run: `npm run rootfs -- DIR` (as root; about 30 s and 200 MB). Never run by tests: too slow.
 */
import { spawn } from 'node:child_process';
import { appendFile, chmod, chown, mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startProgress } from '../src/cli/progress.ts';
import { SPRITE_GID, SPRITE_HOME, SPRITE_UID } from '../src/protocol/sprite-tree.ts';
import { withSpriteGroups, withSpritePasswd } from '../src/protocol/sprite-accounts.ts';

/** Debian's own mirror, used when the host names none. */
export const DEFAULT_MIRROR = 'http://deb.debian.org/debian';

/**
 * The first `URIs:` of the host's deb822 apt sources (`/etc/apt/sources.list.d/debian.sources`) that serves the
 * main archive (not `-security`), else DEFAULT_MIRROR.
 */
export async function hostMirror(file = '/etc/apt/sources.list.d/debian.sources'): Promise<string> {
  const text = await readFile(file, 'utf8').catch(() => '');
  const uris = [...text.matchAll(/^URIs:\s*(\S+)/gm)].map((m) => m[1]!);
  return uris.find((u) => !u.includes('security')) ?? DEFAULT_MIRROR;
}

/** Options of `buildRootfs`. */
export interface RootfsOptions {
  /** Debian suite (default `bookworm`). */
  suite?: string;
  /** Mirror URL (default `hostMirror()`). */
  mirror?: string;
  /** Receives every progress line (default: stdout). */
  log?: (line: string) => void;
}

/**
 * Runs `debootstrap --variant=minbase <suite> DIR <mirror>` and then adds the sprite user and the agent's mount
 * points. Rejects when debootstrap is missing (with the apt-get line to install it), when not root, when `dir`
 * is a non-empty directory, or when debootstrap fails (its exit code).
 * @see https://manpages.debian.org/bookworm/debootstrap/debootstrap.8.en.html, docs/sandbox.md "Measure"
 */
export async function buildRootfs(dir: string, opts: RootfsOptions = {}): Promise<void> {
  const log = opts.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const target = resolve(dir);
  if (process.getuid?.() !== 0) throw new Error('building a root filesystem needs root (debootstrap)');
  const existing = await readdir(target).catch(() => [] as string[]);
  if (existing.length) throw new Error(`${target} is not empty`);
  const mirror = opts.mirror ?? (await hostMirror());
  const suite = opts.suite ?? 'bookworm';
  log(`rootfs: debootstrap --variant=minbase ${suite} ${target} ${mirror}`);
  await new Promise<void>((ok, fail) => {
    const child = spawn('debootstrap', ['--variant=minbase', suite, target, mirror], { stdio: ['ignore', 'pipe', 'pipe'] });
    for (const stream of [child.stdout, child.stderr]) createInterface({ input: stream }).on('line', (l) => log(`  ${l}`));
    child.once('error', (err: NodeJS.ErrnoException) =>
      fail(err.code === 'ENOENT' ? new Error('debootstrap is not installed: apt-get install -y debootstrap') : err),
    );
    child.once('exit', (code) => (code === 0 ? ok() : fail(new Error(`debootstrap exited ${code}`))));
  });
  log(`rootfs: adding the sprite user (uid/gid ${SPRITE_UID}, in sudo and users, ${SPRITE_HOME}) and /.sprite mount points`);
  const passwd = await readFile(join(target, 'etc/passwd'), 'utf8');
  if (!/^sprite:/m.test(passwd)) await appendFile(join(target, 'etc/shadow'), 'sprite:*:19000:0:99999:7:::\n').catch(() => undefined);
  await writeFile(join(target, 'etc/passwd'), withSpritePasswd(passwd));
  await writeFile(join(target, 'etc/group'), withSpriteGroups(await readFile(join(target, 'etc/group'), 'utf8')));
  await mkdir(join(target, SPRITE_HOME), { recursive: true });
  await chown(join(target, SPRITE_HOME), SPRITE_UID, SPRITE_GID);
  for (const d of ['.sprite/bin', '.sprite/agent', '.sprite/run']) await mkdir(join(target, d), { recursive: true });
  await writeFile(join(target, '.sprite/bin/node'), '');
  await chmod(join(target, 'tmp'), 0o1777);
  log(`rootfs: done; use it with --sandbox-root ${target}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2];
  if (!dir) {
    process.stderr.write('usage: npm run rootfs -- DIR\n');
    process.exit(2);
  }
  // On a terminal one spinner line follows debootstrap's steps; in a log, every line is kept (src/cli/progress.ts).
  const progress = startProgress('rootfs');
  buildRootfs(dir, { log: (line) => progress.step(line.replace(/^rootfs: /, '').trim()) }).then(
    () => progress.done(`ready; use it with --sandbox-root ${resolve(dir)}`),
    (err: Error) => {
      progress.fail(err.message);
      process.exit(1);
    },
  );
}
