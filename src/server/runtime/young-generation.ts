/**
 * A smaller resident heap for an idle server. V8 doubles its young generation (the semi-spaces, up to 16 MiB each
 * on 64-bit Node 20) whenever most of what a scavenge finds is still alive; at start nearly everything is (modules,
 * the OpenAPI document, the compiled validators), so the young generation grows to its maximum during start-up for
 * nothing, and the pages it touched stay resident for the life of the process: ≈ 10 MiB of an idle spritzer's RSS
 * (docs/performance.md "Idle memory"). `holdYoungGeneration` keeps it at its initial size while the server starts
 * (V8's `--semi-space-growth-factor`, read at each growth, set to 1); `releaseYoungGeneration` gives back V8's
 * default (2), so under request load it grows as before. A user's own `--semi-space-growth-factor` (an argument
 * of `node` itself; Node refuses it in `NODE_OPTIONS`) is left alone. It owns this growth setting only, no other V8
 * flag.
 * @see https://v8.dev/blog/orinoco-parallel-scavenger ; node --v8-options (semi-space-growth-factor)
 */
import v8 from 'node:v8';

/** V8's own default of `--semi-space-growth-factor` (Node 20, V8 11.3). */
export const V8_DEFAULT_GROWTH_FACTOR = 2;

const FLAG = /(^|\s)--semi[-_]space[-_]growth[-_]factor\b/;
let held = false;

/**
 * Stops the young generation from growing, unless `nodeArgs` (the arguments `node` was started with,
 * `process.execArgv`) set the growth factor themselves. Returns whether it did; idempotent.
 */
export function holdYoungGeneration(nodeArgs: string = process.execArgv.join(' ')): boolean {
  if (held) return true;
  if (FLAG.test(nodeArgs)) return false;
  v8.setFlagsFromString('--semi-space-growth-factor=1');
  held = true;
  return true;
}

/** Lets the young generation grow again by V8's default factor, if `holdYoungGeneration` stopped it; idempotent. */
export function releaseYoungGeneration(): void {
  if (!held) return;
  v8.setFlagsFromString(`--semi-space-growth-factor=${V8_DEFAULT_GROWTH_FACTOR}`);
  held = false;
}
