/**
 * Progress of long command-line work (building a root filesystem or an image, opening a slow engine at start):
 * on a terminal, one spinner line (ora) that shows the current step and the elapsed seconds; elsewhere (CI logs,
 * pipes), plain lines, one per step. It owns the presentation only; the work reports its steps here.
 * @see docs/architecture.md "Rules of the house" (output), README "Using it"
 */
import ora, { type Ora } from 'ora';

/** A running piece of long work. */
export interface Progress {
  /** The work moved on to `text` (a spinner's text on a terminal; a plain line elsewhere). */
  step(text: string): void;
  /** The work ended well: `✔ title: text (Ns)` on a terminal, a plain `title: text` line elsewhere. */
  done(text?: string): void;
  /** The work failed: `✖ title: text` on a terminal, a plain line elsewhere. */
  fail(text: string): void;
}

/** Where progress goes: a writable stream and whether it is a terminal. */
export interface ProgressOutput {
  write(chunk: string): boolean;
  isTTY?: boolean;
}

/**
 * Starts reporting `title` on `out` (default: stderr, so stdout stays machine-readable). `now` is injectable
 * for tests (milliseconds).
 */
export function startProgress(title: string, out: ProgressOutput = process.stderr, now: () => number = Date.now): Progress {
  const started = now();
  const elapsed = () => `${((now() - started) / 1000).toFixed(1)}s`;
  if (!out.isTTY) {
    out.write(`${title}...\n`);
    return {
      step: (text) => void out.write(`${title}: ${text}\n`),
      done: (text) => void out.write(`${title}: ${text ?? 'done'} (${elapsed()})\n`),
      fail: (text) => void out.write(`${title}: failed: ${text}\n`),
    };
  }
  const spinner: Ora = ora({ text: title, stream: out as NodeJS.WritableStream, isEnabled: true }).start();
  return {
    step: (text) => void (spinner.text = `${title}: ${text} (${elapsed()})`),
    done: (text) => void spinner.succeed(`${title}: ${text ?? 'done'} (${elapsed()})`),
    fail: (text) => void spinner.fail(`${title}: ${text}`),
  };
}
