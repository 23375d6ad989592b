/**
 * The exec engine factory: maps an engine name (`--exec` / `SPRITZER_EXEC`) to an `ExecEngine`. It owns the list
 * of engine names; it does not choose a default (the CLI does: `shell`).
 * @see docs/architecture.md "Machines and engines"
 */
import type { Clock } from '../../core/clock.ts';
import { createInterpreterEngine } from './interpreter.ts';
import { createShellEngine } from './shell/engine.ts';
import type { ExecEngine } from './engine.ts';
import type { ShellLimits } from '../../config/shell-limits.ts';

import { ENGINE_NAMES, type EngineName } from './names.ts';

export { ENGINE_NAMES, type EngineName } from './names.ts';

/**
 * What engines may need: the injected clock, the shell engine's stdin grace period (ms, default 50) and its stdin
 * limit (bytes, default 64 MiB, docs/limits.md).
 */
export interface EngineDeps {
  clock: Clock;
  stdinGraceMs?: number;
  /** Wait (ms) for the first stdin byte of a command that may read stdin (`--stdin-wait`, stdin-wait.ts). */
  stdinWaitMs?: number;
  maxStdinBytes?: number;
  /** The shell engine's command count and time limits (`--shell-max-commands`, `--shell-timeout`, docs/limits.md). */
  shellLimits?: ShellLimits;
}

/**
 * Creates the engine called `name`. Throws a `TypeError` for an unknown name (the CLI restricts `--exec` to
 * {@link ENGINE_NAMES} before calling this).
 */
export function createEngine(name: EngineName, deps: EngineDeps): ExecEngine {
  switch (name) {
    case 'shell':
      return createShellEngine({ clock: deps.clock, stdinGraceMs: deps.stdinGraceMs, stdinWaitMs: deps.stdinWaitMs, maxStdinBytes: deps.maxStdinBytes, limits: deps.shellLimits });
    case 'interpreter':
      return createInterpreterEngine();
    default:
      throw new TypeError(`unknown exec engine: ${String(name)} (expected one of ${ENGINE_NAMES.join(', ')})`);
  }
}
