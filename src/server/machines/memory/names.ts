/**
 * The names of the in-memory exec engines, in `--exec` spelling, without loading any engine (the CLI and the machine
 * factory need the names at start; the engines themselves load on the first sprite, machines/memory/load.ts).
 * @see docs/architecture.md "Machines and engines"
 */

/** The engines this build can run in memory, in `--exec` spelling. */
export const ENGINE_NAMES = ['shell', 'interpreter'] as const;

/** One of {@link ENGINE_NAMES}. */
export type EngineName = (typeof ENGINE_NAMES)[number];
