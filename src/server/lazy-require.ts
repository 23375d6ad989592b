/**
 * Loading a heavy CommonJS dependency on first use instead of at start: dockerode (≈ 1.4 s and 26 MiB of RSS to
 * import on the shared 2-core machines, needed only by `--exec container`) and better-sqlite3 (a native addon,
 * needed only with `--data-dir`) were loaded by every `spritzer` start through static imports. It owns the
 * deferral only; callers keep `import type` for their types.
 * @see issue 11 item 3 ("import less before listening"), docs/performance.md "Start"
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
