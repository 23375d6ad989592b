/**
 * The records of container sprites (their fields above the machine: creation time, labels, URL settings, config,
 * environment, `Machine.remember`), kept on spritzer's host, one file per sprite, so that a restarted spritzer can
 * adopt its containers with their fields. Never inside the container: root there could rewrite what spritzer
 * trusts (forged labels, a public URL). It owns those files only.
 * @see docs/container.md "Restarts", docs/security.md
 */
import { mkdir, readdir, readFile, rm, rmdir, writeFile, rename } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MachineRecord } from '../port.ts';

/**
 * Where the records of namespace `namespace` live by default: `$XDG_STATE_HOME/spritzer/container/<namespace>`
 * (`~/.local/state/…` without it), so that every spritzer of this user on this host finds them. A uid with no
 * home (HOME `/` or none: what Docker and Kubernetes give a uid their image's passwd lacks, e.g. a pod's
 * `runAsUser`) keeps them in `$TMPDIR/spritzer-state-<uid>/…` instead of failing every create on `mkdir /.local`.
 * @see https://specifications.freedesktop.org/basedir-spec/latest/
 */
export function defaultRecordDir(namespace: string, env: NodeJS.ProcessEnv = process.env, uid: number | undefined = process.getuid?.()): string {
  const home = homeOf(env);
  const state = env.XDG_STATE_HOME || (home ? join(home, '.local', 'state') : join(tmpdir(), `spritzer-state-${uid ?? 'user'}`));
  return join(state, 'spritzer', 'container', namespace);
}

/** `$HOME`, else the passwd entry's home; undefined when there is none or it is `/`. */
function homeOf(env: NodeJS.ProcessEnv): string | undefined {
  let home = env.HOME;
  if (home === undefined) {
    try {
      home = homedir();
    } catch {
      return undefined;
    }
  }
  return home && home !== '/' ? home : undefined;
}

/** The records of one namespace, by sprite id (a name the daemon's labels give, which the container cannot change). */
export class HostRecords {
  constructor(private readonly dir: string) {}

  private file(spriteId: string): string {
    return join(this.dir, `${encodeURIComponent(spriteId)}.json`);
  }

  /** Keeps `record` for `spriteId` (the directory 0700, the file 0600, replaced whole). */
  async write(spriteId: string, record: MachineRecord): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const tmp = `${this.file(spriteId)}.tmp`;
    await writeFile(tmp, JSON.stringify(record), { mode: 0o600 });
    await rename(tmp, this.file(spriteId));
  }

  /** The record kept for `spriteId`, or undefined when there is none or it does not parse. */
  async read(spriteId: string): Promise<MachineRecord | undefined> {
    try {
      const parsed = JSON.parse(await readFile(this.file(spriteId), 'utf8')) as MachineRecord;
      return typeof parsed?.createdAt === 'number' ? parsed : undefined;
    } catch {
      return undefined;
    }
  }

  /** Forgets `spriteId`'s record, and the namespace's directory once it holds none. Idempotent. */
  async remove(spriteId: string): Promise<void> {
    await rm(this.file(spriteId), { force: true });
    await this.dropDirIfEmpty();
  }

  /**
   * Forgets every record but those of `keep` (sprite ids): the records of sprites whose containers are gone (a node
   * deleted with its pods, containers removed by hand), which no adoption will ever read.
   */
  async prune(keep: ReadonlySet<string>): Promise<void> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    for (const name of names) {
      if (!name.endsWith('.json')) continue;
      let id: string;
      try {
        id = decodeURIComponent(name.slice(0, -'.json'.length));
      } catch {
        continue; // not a name this class writes
      }
      if (!keep.has(id)) await rm(join(this.dir, name), { force: true });
    }
    await this.dropDirIfEmpty();
  }

  private async dropDirIfEmpty(): Promise<void> {
    await rmdir(this.dir).catch(() => undefined); // ENOTEMPTY, ENOENT: kept, or already gone
  }
}
