/**
 * A supervisor may stop spritzer the moment it prints that it listens: spritzer then shuts down (exit 0), never dies
 * by the signal's default action, which would leave its temp data dir's loop mount. The sandbox engine's start is
 * where the gap showed (the listening line was printed before the signal handlers were in place).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { TOKEN } from '../support/server.ts';
import { killChildren, startSpritzer, stopSpritzer } from '../support/spritzer-process.ts';
import { announceSkip } from './support.ts';

const skip = announceSkip('signal at start');
afterEach(killChildren);

describe.skipIf(skip)('a SIGTERM as soon as spritzer listens', () => {
  it('shuts it down cleanly, every time', async () => {
    for (let i = 0; i < 5; i++) {
      const { child } = await startSpritzer(['--exec', 'sandbox', '--sandbox-spares', '0', '--token', TOKEN]);
      expect(await stopSpritzer(child, 'SIGTERM')).toBe(0);
    }
  }, 120_000);
});
