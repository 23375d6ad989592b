/**
 * The kernel's own trees in a sprite's view (`/proc`, `/sys` and every pseudo-filesystem the kernel serves there:
 * sysfs, cgroups, debugfs, securityfs…), which the fs API never writes: `/proc/sys` holds host-global kernel settings
 * (`kernel/core_pattern`, `fs/inotify/*`) that root inside a sprite could otherwise set for the whole host. It owns
 * the decision "is this open file, or this path, a kernel file"; not the errors (fs-ops.ts), not reads.
 * @see docs/security.md "The fs API"
 */
import * as fsp from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';

/** The directories whose contents the kernel serves (never a disk), as sprite paths. */
export const KERNEL_TREES: readonly string[] = ['/proc', '/sys'];

/**
 * `statfs` magic numbers of the kernel's pseudo-filesystems (linux/magic.h): proc, sysfs, cgroup, cgroup2, debugfs,
 * tracefs, securityfs, bpf, pstore, efivarfs, configfs, binfmt_misc.
 */
const KERNEL_FS_MAGIC: ReadonlySet<number> = new Set([
  0x9fa0, 0x62656572, 0x27e0eb, 0x63677270, 0x64626720, 0x74726163, 0x73636673, 0xcafe4a11, 0x6165676c, 0xde5e81e4,
  0x62656570, 0x42494e4d,
]);

/**
 * The agent's own directory (its socket), which the sandbox binds from a host directory outside the sprite's disk
 * and quota: the fs API writes nothing there either, so every byte it writes counts against the sprite's quota.
 */
export const AGENT_TREES: readonly string[] = ['/.sprite/run'];

/**
 * Whether sprite (or host) path `p`, normalised and absolute, is `/proc`, `/sys` (or the agent's own directory) or
 * below one of them.
 */
export function inKernelTree(p: string): boolean {
  return [...KERNEL_TREES, ...AGENT_TREES].some((t) => p === t || p.startsWith(`${t}/`));
}

/** Whether the filesystem holding host path `p` (followed) is one of the kernel's pseudo-filesystems. */
async function onKernelFs(p: string): Promise<boolean> {
  const st = await fsp.statfs(p).catch(() => undefined);
  return st !== undefined && KERNEL_FS_MAGIC.has(Number(st.type));
}

/**
 * Whether the open file `fh` is a kernel file: its filesystem is a kernel pseudo-filesystem, or the path the kernel
 * resolved it to (`/proc/self/fd/N`, in the agent's own mount namespace) lies in a kernel tree, directly or under
 * `root` (the agent's test mode maps sprite paths under a host directory).
 */
export async function isKernelFile(fh: FileHandle, root: string): Promise<boolean> {
  const link = `/proc/self/fd/${fh.fd}`;
  if (await onKernelFs(link)) return true;
  const real = await fsp.readlink(link).catch(() => '');
  return inKernelTree(real) || (!!root && real.startsWith(`${root}/`) && inKernelTree(real.slice(root.length)));
}

/**
 * Whether host path `host` resolves (every link followed, a missing tail left as is) into a kernel file or tree: the
 * deepest existing ancestor's real path and filesystem decide. `root` as for `isKernelFile`.
 */
export async function resolvesIntoKernel(host: string, root: string): Promise<boolean> {
  let at = host;
  let tail = '';
  for (;;) {
    const real = await fsp.realpath(at).catch(() => undefined);
    if (real !== undefined) {
      const full = real + tail;
      if (await onKernelFs(real)) return true;
      return inKernelTree(full) || (!!root && full.startsWith(`${root}/`) && inKernelTree(full.slice(root.length)));
    }
    const i = at.lastIndexOf('/');
    if (i <= 0) return false;
    tail = at.slice(i) + tail;
    at = at.slice(0, i);
  }
}
