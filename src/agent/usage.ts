/**
 * Disk usage of a sprite as the agent sees it: a walk of the writable part of its tree, counting regular files and
 * their bytes (each inode once). It skips `/proc`, `/sys`, `/dev`, `/.sprite` and every read-only mount (the base
 * OS binds), read from `/proc/self/mountinfo`. It owns the walk only; quotas are the host's business.
 * @see src/server/machines/port.ts `Machine.usage`, https://man7.org/linux/man-pages/man5/proc_pid_mountinfo.5.html
 */
import * as fsp from 'node:fs/promises';

/** Paths never counted, in the sprite's view. */
const SKIPPED = ['/proc', '/sys', '/dev', '/.sprite'];

/** Mount points (host paths) that are read-only, from mountinfo text (octal escapes like `\040` decoded). */
export function readOnlyMounts(mountinfo: string): string[] {
  const out: string[] = [];
  for (const line of mountinfo.split('\n')) {
    const f = line.split(' ');
    if (f.length < 6) continue;
    const options = f[5]!.split(',');
    if (options.includes('ro')) out.push(f[4]!.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8))));
  }
  return out;
}

/**
 * Bytes and regular files under `root` (a host directory; `/` inside the sandbox). `skipHost` lists host paths
 * not to enter (read-only mounts). Unreadable directories and files that vanish during the walk are skipped.
 */
export async function diskUsage(root: string, skipHost: string[] = []): Promise<{ bytes: number; files: number }> {
  const skip = new Set([...SKIPPED.map((p) => (root === '/' || root === '' ? p : root + p)), ...skipHost]);
  skip.delete(root === '' ? '/' : root);
  const seen = new Set<string>();
  let bytes = 0;
  let files = 0;
  const stack = [root === '' ? '/' : root];
  while (stack.length > 0) {
    const dir = stack.pop()!;
    let entries: import('node:fs').Dirent[];
    try {
      entries = await fsp.readdir(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      const at = dir === '/' ? `/${e.name}` : `${dir}/${e.name}`;
      if (skip.has(at)) continue;
      if (e.isDirectory()) stack.push(at);
      else if (e.isFile()) {
        const st = await fsp.lstat(at).catch(() => undefined);
        if (!st) continue;
        const key = `${st.dev}:${st.ino}`;
        if (seen.has(key)) continue;
        seen.add(key);
        files += 1;
        bytes += st.size;
      }
    }
  }
  return { bytes, files };
}
