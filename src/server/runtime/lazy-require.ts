/**
 * Loading a heavy CommonJS dependency on first use instead of at start: dockerode (≈ 1.4 s and 26 MiB of RSS to
 * import on the shared 2-core machines, needed only by `--exec container`) and better-sqlite3 (a native addon,
 * needed only with `--data-dir`) were loaded by every `spritzer` start through static imports. It owns the
 * deferral only; callers keep `import type` for their types.
 * @see docs/performance.md "Start" (import less before listening)
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * A function that `require`s `specifier` (resolved from this package) on its first call and returns the same
 * module export every time after; `pick` selects what to return from the module (default: its `default` export
 * when it has one, else the module itself). Throws what `require` throws (e.g. `MODULE_NOT_FOUND`), at the call.
 */
export function lazyRequire<T>(specifier: string, pick: (mod: any) => T = (mod) => mod?.__esModule && 'default' in mod ? mod.default : mod): () => T {
  let loaded: { value: T } | undefined;
  return () => (loaded ??= { value: pick(require(specifier)) }).value;
}

/** The package's own package.json (two levels up from src/server/ and from dist/server/ alike). */
const manifest = require('../../../package.json') as { peerDependencies?: Record<string, string> };

/**
 * The error for a feature whose optional package is not installed: it names the package and the command that
 * installs the range spritzer was tested with (package.json `peerDependencies`, marked optional in
 * `peerDependenciesMeta`, so installing the package spritzer-emulator compiles nothing for the default engine).
 * @see docs/limits.md "Optional packages"
 */
export function missingPackage(pkg: string, feature: string): Error {
  const range = manifest.peerDependencies?.[pkg];
  return new Error(`${feature} needs the optional package ${pkg}, which is not installed: npm install ${range ? `${pkg}@${range}` : pkg}`);
}

/** Whether `err` is require's MODULE_NOT_FOUND for `pkg` itself (not for something inside it). */
function isMissing(err: unknown, pkg: string): boolean {
  const e = err as { code?: string; message?: string };
  return e?.code === 'MODULE_NOT_FOUND' && typeof e.message === 'string' && e.message.includes(`'${pkg}`);
}

/**
 * {@link lazyRequire} for an optional package: when `pkg` is not installed the call throws
 * {@link missingPackage}`(pkg, feature)` instead of require's bare MODULE_NOT_FOUND; other errors pass through.
 */
export function lazyRequireOptional<T>(pkg: string, feature: string, pick?: (mod: any) => T): () => T {
  const load = lazyRequire<T>(pkg, pick);
  return () => {
    try {
      return load();
    } catch (err) {
      throw isMissing(err, pkg) ? missingPackage(pkg, feature) : err;
    }
  };
}

/** The directory of an installed optional package (`<dir>/package.json` resolved), or {@link missingPackage}. */
export function optionalPackageDir(pkg: string, feature: string): string {
  try {
    return require.resolve(`${pkg}/package.json`).slice(0, -'/package.json'.length);
  } catch (err) {
    throw isMissing(err, pkg) ? missingPackage(pkg, feature) : err;
  }
}
