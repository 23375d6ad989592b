/**
 * The read-only `/proc` the shell engine shows a command (as just-bash's own filesystem would): `/proc/version`,
 * `/proc/mounts`, `/proc/self/cmdline`, `/proc/self/comm`, `/proc/self/status` of the running script's virtual process. It is not
 * stored in the sprite's VFS (never in the fs API or a checkpoint) and holds no state; `BashFs` serves it.
 * @see docs/fidelity.md "What the shell engine cannot do" (`/proc`), node_modules/just-bash (its `/proc` layout)
 */

/** The virtual process `/proc/self` describes: its pid and parent pid (the sprite's), uid/gid of `sprite`. */
export interface ProcInfo {
  pid: number;
  ppid: number;
}

/** What `/proc/version` reads. */
export const PROC_VERSION = 'Linux version 6.12.0-spritzer (spritzer shell engine) #1 SMP\n';

/**
 * The sprite's mounts as `/proc/mounts` lists them: its one ext4 disk on `/`, and the kernel's `/proc` and `/dev`.
 * @deviation The device name is spritzer's; what a real sprite calls its disk is not documented.
 */
export const MOUNTS: ReadonlyArray<{ source: string; target: string; type: string }> = [
  { source: '/dev/vda', target: '/', type: 'ext4' },
  { source: 'proc', target: '/proc', type: 'proc' },
  { source: 'devtmpfs', target: '/dev', type: 'devtmpfs' },
];
const MOUNTS_TEXT = MOUNTS.map((m) => `${m.source} ${m.target} ${m.type} rw,relatime 0 0\n`).join('');

const DIRS: Record<string, string[]> = { '/proc': ['mounts', 'self', 'version'], '/proc/self': ['cmdline', 'comm', 'mounts', 'status'] };

/** Names in the `/proc` directory `p` (normalised), or null when `p` is not one. */
export function procDir(p: string): string[] | null {
  return DIRS[p] ?? null;
}

/**
 * The bytes of the `/proc` file `p` (normalised) for the process `info`, or null when `p` is not one.
 * `status` holds `Name`, `State`, `Pid`, `PPid`, `Uid` and `Gid` lines as Linux words them.
 * @deviation Only these files exist; `/proc/<pid>`, `/proc/cpuinfo`, `/proc/meminfo` and `/proc/self/fd` do not.
 */
export function procFile(p: string, info: ProcInfo): Uint8Array | null {
  const text = (s: string) => new TextEncoder().encode(s);
  switch (p) {
    case '/proc/version':
      return text(PROC_VERSION);
    case '/proc/mounts':
    case '/proc/self/mounts':
      return text(MOUNTS_TEXT);
    case '/proc/self/cmdline':
      return text('bash\0');
    case '/proc/self/comm':
      return text('bash\n');
    case '/proc/self/status':
      return text(`Name:\tbash\nState:\tR (running)\nPid:\t${info.pid}\nPPid:\t${info.ppid}\nUid:\t1000\t1000\t1000\t1000\nGid:\t1000\t1000\t1000\t1000\n`);
    default:
      return null;
  }
}
