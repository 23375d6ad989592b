/**
 * A start-up step that reports progress only when it is slow, so a quick start stays quiet and a slow one (sandbox
 * spares booting, a container image built) is never a silent wait: nothing is printed for a step that settles
 * within `afterMs`; past it, a progress line (src/cli/progress.ts: a spinner on a terminal, plain lines elsewhere)
 * says what is going on and then how it ended. It owns the "is it slow yet?" timer only; the work and the
 * presentation are the caller's and progress.ts's.
 */
import type { Progress, ProgressOutput } from './progress.ts';

/** What a slow step needs: a timer (injectable for tests), the output, and the progress factory. */
export interface SlowStepDeps {
  /** Milliseconds the step may take before progress shows (default 1000). */
  afterMs?: number;
  /** Where progress goes (default: stderr, so stdout keeps the start-up line). */
  out?: ProgressOutput;
  setTimer?: (fn: () => void, ms: number) => { unref?(): unknown } | unknown;
  clearTimer?: (handle: unknown) => void;
  /** Starts the progress display (default: progress.ts's startProgress, imported only when a step is slow). */
  start?: (title: string, out?: ProgressOutput) => Progress | Promise<Progress>;
}

/**
 * Awaits `work`; when it is still running after `afterMs`, shows `title` as progress, ended by `done(doneText)` or
 * by `fail(error message)`. Resolves or rejects exactly as `work` does.
 * @example await slowStep('starting the sandbox engine', openMachineFactory('sandbox', deps), { doneText: 'ready' })
 */
export async function slowStep<T>(title: string, work: Promise<T>, deps: SlowStepDeps & { doneText?: string } = {}): Promise<T> {
  const setTimer = deps.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  const clearTimer = deps.clearTimer ?? ((h) => clearTimeout(h as NodeJS.Timeout));
  // ora (in progress.ts) is loaded only once a step turns out slow: a fast start pays nothing for it.
  const start = deps.start ?? (async (t: string, o?: ProgressOutput) => (await import('./progress.ts')).startProgress(t, o));
  let progress: Promise<Progress> | undefined;
  const timer = setTimer(() => {
    progress = Promise.resolve(start(title, deps.out ?? process.stderr));
  }, deps.afterMs ?? 1000);
  (timer as { unref?(): unknown } | undefined)?.unref?.();
  try {
    const value = await work;
    (await progress?.catch(() => undefined))?.done(deps.doneText);
    return value;
  } catch (err) {
    (await progress?.catch(() => undefined))?.fail(err instanceof Error ? err.message : String(err));
    throw err;
  } finally {
    clearTimer(timer);
  }
}
