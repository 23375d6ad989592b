/**
 * What a crashed sandbox run without `--data-dir` leaves behind: its temp data dir (`<tmp>/spritzer-XXXXXX`) with the
 * btrfs image still loop-mounted under it, and its cgroup parents. A clean exit removes them (the factory's exit
 * hook); a `kill -9` cannot, and the next run uses a new temp dir, so nothing would ever claim them again. This module
 * finds such dirs and removes them; the same-dir clean-up of a `--data-dir` is data-dir.ts's.
 */
import { readFile, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { claimDataDir, LOCK_FILE } from './data-dir.ts';

/** The name `mkdtemp(join(tmpdir(), 'spritzer-'))` gives a temp data dir. */
const TEMP_DATA_DIR = /^spritzer-[A-Za-z0-9]{6}$/;

/** The file a kept `--data-dir` always holds (the store's database), which a temp data dir never does. */
const STORE_FILE = 'spritzer.db';

/**
 * Removes every temp data dir under `tmp` that a dead spritzer left: named as `mkdtemp` names one, holding a pid file
 * (so a sandbox factory claimed it) whose process is gone, and no store database (so it was never a kept
 * `--data-dir`, whose disks are the user's). Each is claimed (its leftover sandboxes killed, its mounts unmounted:
 * data-dir.ts), `cleanCgroups` is called with its path (the cgroups are named by a hash of it), then it is deleted.
 * A dir whose claim fails (its spritzer is alive) is left. Resolves with the paths removed.
 */
export async function sweepCrashedTempDirs(tmp: string, cleanCgroups: (dir: string) => Promise<void>): Promise<string[]> {
  const removed: string[] = [];
  for (const name of await readdir(tmp).catch(() => [] as string[])) {
    if (!TEMP_DATA_DIR.test(name)) continue;
    const dir = join(tmp, name);
    const owner = Number((await readFile(join(dir, LOCK_FILE), 'utf8').catch(() => '')).trim());
    if (!owner || owner === process.pid) continue;
    if (await stat(join(dir, STORE_FILE)).then(() => true, () => false)) continue;
    try {
      const claim = await claimDataDir(dir);
      await cleanCgroups(claim.dir);
      await rm(claim.dir, { recursive: true, force: true });
      removed.push(claim.dir);
    } catch {
      // its spritzer is alive, or the dir cannot be removed now: left for a later start
    }
  }
  return removed;
}
