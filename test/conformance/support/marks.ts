/**
 * Test marks of the conformance suite. Every test is either `verified.it` (the behaviour is what real Sprites
 * does; it runs on both targets) or `emulatorOnly.it` (fault knobs, `/_spritzer`, emulator conveniences; skipped
 * when `SPRITES_BASE_URL` names a server). The mark is also appended to the title (`[verified]`,
 * `[emulatorOnly]`) so reports show it. Nothing else decides whether a test runs.
 * @see docs/architecture.md "Tests"; localstack's `markers.aws.validated` / `only_localstack` for the idea
 */
import { it, type TestFunction } from 'vitest';
import { IS_REMOTE } from './target.ts';

/** The two marks. */
export type Mark = 'verified' | 'emulatorOnly';

interface Marked {
  /** Declares a test with this mark. */
  it(title: string, fn: TestFunction, timeoutMs?: number): void;
}

function marked(mark: Mark, skip: boolean): Marked {
  return {
    it(title, fn, timeoutMs) {
      it.skipIf(skip)(`${title} [${mark}]`, fn, timeoutMs);
    },
  };
}

/** Runs on the emulator and against real Sprites: a failure against real Sprites means the spec is wrong. */
export const verified: Marked = marked('verified', false);

/** Runs only on the emulator (skipped against a remote target). */
export const emulatorOnly: Marked = marked('emulatorOnly', IS_REMOTE);
