/**
 * The modules `npm run mutation` mutates, each with the unit tests that must kill its mutants (and only those, so
 * that a run stays in minutes). Adding a module is one line here; its incremental file appears on its first run.
 * It does not run anything: scripts/mutation.mjs does, and stryker.config.mjs turns one entry into Stryker options.
 * @see README.md "Mutation testing"
 */

/**
 * `{ file, tests }`: `file` is the source file Stryker mutates, `tests` the test files (globs) vitest runs against it.
 * `break` (optional, default 90) is the score in % below which the run fails.
 * @type {ReadonlyArray<{ file: string, tests: string[], break?: number }>}
 */
export const MODULES = [
  { file: 'src/protocol/frames.ts', tests: ['src/protocol/frames.test.ts'] },
  { file: 'src/protocol/ndjson.ts', tests: ['src/protocol/ndjson.test.ts'] },
  { file: 'src/protocol/control.ts', tests: ['src/protocol/control.test.ts'] },
  { file: 'src/server/exec/frames.ts', tests: ['src/server/exec/frames.test.ts'] },
  // messages.test.ts checks the spec itself (it loads spec/asyncapi.yaml, ~40 s a run): too slow to run per mutant.
  { file: 'src/protocol/messages.ts', tests: ['src/protocol/messages-parse.test.ts'] },
  { file: 'src/protocol/signals.ts', tests: ['src/protocol/signals.test.ts'] },
  { file: 'src/protocol/query.ts', tests: ['src/protocol/query.test.ts'] },
  { file: 'src/protocol/close-codes.ts', tests: ['src/protocol/close-codes.test.ts'] },
  { file: 'src/server/machines/memory/vfs.ts', tests: ['src/server/machines/memory/vfs*.test.ts'] },
  { file: 'src/server/core/network-policy.ts', tests: ['src/server/core/network-policy.test.ts'] },
  { file: 'src/server/model/sprite-policies.ts', tests: ['src/server/model/sprite-policies.test.ts', 'src/server/core/network-policy.test.ts'] },
  { file: 'src/server/core/duration.ts', tests: ['src/server/core/duration.test.ts'] },
  { file: 'src/server/model/sessions.ts', tests: ['src/server/model/sessions*.test.ts', 'src/server/exec/start.test.ts'] },
  { file: 'src/server/model/services.ts', tests: ['src/server/model/services.test.ts'] },
  { file: 'src/server/model/tasks.ts', tests: ['src/server/model/tasks.test.ts'] },
  { file: 'src/server/model/sprites.ts', tests: ['src/server/model/sprites*.test.ts'] },
  // The automatic checkpoints' ids, comment and bounds (which ones a sprite drops).
  { file: 'src/server/model/auto-checkpoints.ts', tests: ['src/server/model/auto-checkpoints.test.ts', 'src/server/model/sprites-auto-checkpoints.test.ts'] },
  // The sprite list's name index (a page is a binary search and a slice).
  { file: 'src/server/model/sorted-names.ts', tests: ['src/server/model/sorted-names.test.ts'] },
  // The org counters (a sprite looked at again only when it changed or the clock reached its next change).
  { file: 'src/server/model/status-counts.ts', tests: ['src/server/model/status-counts.test.ts'] },
  // The fs list `pattern` matcher (a request's glob: its tests hold bash's rules and the no-backtracking bound).
  { file: 'src/server/core/name-glob.ts', tests: ['src/server/core/name-glob.test.ts'] },
  // The in-sprite agent's protocol (both sides of the agent socket import it).
  { file: 'src/protocol/agent.ts', tests: ['src/protocol/agent.test.ts'] },
  // The Machine port's in-memory adapter (the default engines' sprites).
  { file: 'src/server/machines/memory/machine.ts', tests: ['src/server/machines/memory/machine.test.ts', 'src/server/machines/memory/service-log.test.ts'] },
];

/** `src/server/machines/memory/vfs.ts` → `server-model-vfs`: the name of a module's incremental file and report. */
export function moduleSlug(file) {
  return file.replace(/^src\//, '').replace(/\.[cm]?[jt]s$/, '').replace(/[/\\]/g, '-');
}
