/**
 * The sandbox engine's own native helper, `spritzer-userns` (native/userns.c): it creates a sprite's user
 * namespace with its host id range, mounts the read-only base idmapped through it (open_tree, mount_setattr,
 * move_mount: util-linux 2.38's mount(8) has no `X-mount.idmap`) and the overlays, and becomes the namespace's root
 * before bubblewrap runs. This module answers its path, compiled once with the host's C compiler into a root-only
 * cache (agent/native.ts `compileNative`, which also builds the run-as helper the agent starts processes with).
 * It runs nothing else.
 * @see docs/sandbox.md "User namespaces"
 */
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../runtime/project-root.ts';
import { compileNative, NATIVE_CACHE } from '../agent/native.ts';

/** The helper's C source (shipped with the package). */
export const USERNS_SOURCE = join(PROJECT_ROOT, 'src/server/machines/sandbox/native/userns.c');

/**
 * Resolves with the path of the compiled helper, compiling `source` into `cacheDir` when no binary of its content
 * hash is there yet. Rejects, naming the package to install, when no C compiler works.
 */
export function userNamespaceHelper(source = USERNS_SOURCE, cacheDir = NATIVE_CACHE): Promise<string> {
  return compileNative(source, 'spritzer-userns', { cacheDir });
}
