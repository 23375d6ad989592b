/**
 * Loads an exec engine on demand: the `shell` engine pulls in just-bash (≈ 20 modules and their code), which a
 * server needs only once a sprite exists, so the machine factory loads it on its first sprite (or when warmed after
 * the server listens) rather than at start. It owns that deferral only; machines/memory/engines.ts builds the engine.
 * @see docs/performance.md "Start"
 */
import type { EngineDeps } from './engines.ts';
import type { EngineName } from './names.ts';
import type { ExecEngine } from './engine.ts';

/** What an in-memory machine factory needs from an engine it has not loaded yet: its name, and how to load it. */
export interface EngineLoader {
  readonly name: EngineName;
  /** The engine; the module is imported on the first call, later calls get the same engine. Rejects if it cannot load. */
  load(): Promise<ExecEngine>;
}

/** A loader of the engine called `name` with `deps` (memoised: one engine per loader). */
export function engineLoader(name: EngineName, deps: EngineDeps): EngineLoader {
  let loading: Promise<ExecEngine> | undefined;
  return {
    name,
    load: () => (loading ??= import('./engines.ts').then((m) => m.createEngine(name, deps))),
  };
}
