/**
 * Where spritzer's own files are (spec/, dist/, src/, package.json), found once by walking up from this module to
 * the nearest `package.json` named `spritzer-emulator` (the package's name; its command is `spritzer`). The same
 * answer whether this code runs from src/ (tsx), from the per-file build in dist/, from the bundled server
 * (dist/server/spritzer.mjs, `npm run build`) or from a packed install (node_modules/spritzer-emulator). It owns
 * that lookup only; each user joins its own relative path.
 * Throws at load when no such package.json is above this file (a broken install).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package's name in its package.json, which marks the root. */
const PACKAGE_NAME = 'spritzer-emulator';

/** The first directory at or above `start` holding a package.json named {@link PACKAGE_NAME}; undefined if none. */
export function findProjectRoot(start: string): string | undefined {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === PACKAGE_NAME) return dir;
      } catch {
        // An unreadable package.json on the way up is not ours: keep walking.
      }
    }
    if (dirname(dir) === dir) return undefined;
  }
}

const here = dirname(fileURLToPath(import.meta.url));
const found = findProjectRoot(here);
if (found === undefined) throw new Error(`spritzer: no package.json named "${PACKAGE_NAME}" above ${here}`);

/** The repository (or installed package) root, absolute. */
export const PROJECT_ROOT: string = found;

/** An absolute path inside the project root, e.g. `projectPath('spec/openapi.yaml')`. */
export function projectPath(relative: string): string {
  return join(PROJECT_ROOT, relative);
}
