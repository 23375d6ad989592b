/**
 * The test-suite examples in examples/ run as users would run them: the pytest fixtures start the `spritzer`
 * command on port 0 and read the URL it prints (docs/testing.md). Go is not on these machines, so
 * examples/go is documented, not run here.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The first Python on this machine that has pytest (`.ci/run` installs Debian's python3-pytest). */
function pythonWithPytest(): string {
  for (const py of ['python3', '/usr/bin/python3']) {
    if (spawnSync(py, ['-c', 'import pytest']).status === 0) return py;
  }
  throw new Error('no python3 with pytest on this machine: apt-get install python3-pytest (.ci/run does)');
}

describe('examples', () => {
  it('the pytest fixtures start spritzer, reset it per test, and the example tests pass', () => {
    const py = pythonWithPytest();
    let out: string;
    try {
      out = execFileSync(py, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'examples/python'], {
        cwd: root,
        env: { ...process.env, SPRITZER_CMD: `${process.execPath} bin/spritzer.mjs` },
        encoding: 'utf8',
        timeout: 120_000,
      });
    } catch (e) {
      const err = e as { stdout?: string; stderr?: string };
      throw new Error(`pytest failed:\n${err.stdout ?? ''}${err.stderr ?? ''}`);
    }
    expect(out).toMatch(/\b2 passed\b/);
  }, 150_000);
});
