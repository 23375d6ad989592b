/**
 * The data directory's ownership: one spritzer at a time (a pid file), its privacy (mode DATA_DIR_MODE: other host
 * users may pass through it, never list or read it), and the clean-up of what an earlier run that died left there
 * (its sandbox processes, its loop and overlay mounts). It deletes no layer (storage.ts does, once the mounts are
 * gone) and knows nothing of sprites.
 */
import { readFileSync } from 'node:fs';
import { chmod, readFile, readdir, rm, writeFile, mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { run } from './run.ts';

/** The pid file that marks a data directory as in use. */
export const LOCK_FILE = 'spritzer.pid';
/**
 * Mode of a data directory: only its owner lists it, others may only pass through (the sandbox engine's sprites,
 * each an unprivileged host user, reach their own 0700 directory under `sprites/`). Everything else below it is made
 * 0700 (directories) or 0600 (files) by the module that owns it: the database and its WAL hold services' secret
 * environment, the blobs and the disk image the sprites' files.
 */
export const DATA_DIR_MODE = 0o711;

/** A claimed data directory. */
export interface DataDirClaim {
  /** Absolute path of the data directory. */
  readonly dir: string;
  /** What the clean-up found from an earlier run. */
  readonly stale: { processes: number; mounts: number };
  /** Removes the pid file. Idempotent. */
  release(): Promise<void>;
}

/**
 * Claims `dir` (created if missing; made DATA_DIR_MODE even when it existed) for this process: rejects when the pid
 * file names another live process, else writes ours (0600), then kills every bubblewrap process whose arguments name a path under `dir` (a previous
 * spritzer's sandboxes) and unmounts every mount under `dir`, deepest first (lazily when busy).
 * Needs root for the clean-up (without it, nothing could have been mounted).
 * @see docs/sandbox.md (a restarted spritzer cleans up the mounts and processes an earlier run left behind)
 */
export async function claimDataDir(dir: string): Promise<DataDirClaim> {
  const abs = resolve(dir);
  await mkdir(abs, { recursive: true, mode: DATA_DIR_MODE });
  await chmod(abs, DATA_DIR_MODE);
  const lock = join(abs, LOCK_FILE);
  const owner = Number((await readFile(lock, 'utf8').catch(() => '')).trim());
  if (owner && owner !== process.pid && isAlive(owner)) {
    throw new Error(`data dir ${abs} is in use by another spritzer (pid ${owner}); stop it or pick another --data-dir`);
  }
  await writeFile(lock, `${process.pid}\n`, { mode: 0o600 });
  await chmod(lock, 0o600);
  const processes = await killSandboxesUnder(abs);
  const mounts = await unmountUnder(abs);
  let released = false;
  return {
    dir: abs,
    stale: { processes, mounts },
    release: async () => {
      if (released) return;
      released = true;
      const now = Number((await readFile(lock, 'utf8').catch(() => '')).trim());
      if (now === process.pid) await rm(lock, { force: true });
    },
  };
}

/**
 * Mount points at or below `dir` from `/proc/self/mountinfo`, deepest first (octal escapes such as `\040`
 * decoded).
 */
export async function mountsUnder(dir: string): Promise<string[]> {
  const abs = resolve(dir);
  const info = await readFile('/proc/self/mountinfo', 'utf8');
  const points = info
    .split('\n')
    .map((l) => l.split(' ')[4])
    .filter((p): p is string => !!p)
    .map((p) => p.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8))))
    .filter((p) => p === abs || p.startsWith(`${abs}/`));
  return [...new Set(points)].sort((a, b) => b.length - a.length);
}

/** Unmounts everything at or below `dir`, deepest first; a busy mount is detached lazily. Resolves with the count. */
export async function unmountUnder(dir: string): Promise<number> {
  let n = 0;
  for (let round = 0; round < 4; round++) {
    const points = await mountsUnder(dir);
    if (points.length === 0) break;
    for (const p of points) {
      await run('umount', [p]).catch(() => run('umount', ['-l', p])).catch(() => undefined);
      n += 1;
    }
  }
  return n;
}

/** SIGKILLs every `bwrap` process with an argument under `dir`, and waits (up to 5 s) until they are gone. */
async function killSandboxesUnder(dir: string): Promise<number> {
  const found: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    const argv = (await readFile(`/proc/${name}/cmdline`, 'utf8').catch(() => '')).split('\0');
    if (argv[0]?.endsWith('bwrap') && argv.some((a) => a.startsWith(`${dir}/`))) found.push(Number(name));
  }
  for (const pid of found) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
  for (let i = 0; i < 500 && found.some(isRunning); i++) await new Promise((r) => setTimeout(r, 10));
  return found.length;
}

/** A live node process (a pid file may name a pid the system has since reused for something else). */
function isAlive(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0]!.includes('node');
  } catch {
    return false;
  }
}

/** Alive and not a zombie. */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}
