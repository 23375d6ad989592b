/**
 * Root-level writes in a sandbox sprite (test/support/root-level-writes-suite.ts: the OpenAI Agents provider's,
 * openenv's and the Claude Managed Agents worker's start-up lines, exec sessions' capabilities, services without),
 * and what stays refused there (uid checks, read-only mounts); what escapes nothing is test/sandbox/escape.test.ts's.
 * The container engine runs the same suite (test/container/root-level-writes.test.ts).
 * @see docs/fidelity.md "Root-level writes"
 */
import { describe, expect, it } from 'vitest';
import { execQuery, wsExec } from '../support/server.ts';
import { rootLevelWritesSuite } from '../support/root-level-writes-suite.ts';
import { announceSkip, useSandboxServer } from './support.ts';

const skip = announceSkip('sandbox root-level writes');

describe.skipIf(skip)('root-level writes in a sandbox sprite', () => {
  const url = useSandboxServer();
  rootLevelWritesSuite(url);

  it('what checks uid 0 still refuses, and read-only mounts stay read-only', async () => {
    const script = 'mount -t tmpfs none /mnt 2>&1 | head -1; echo "mount=${PIPESTATUS[0]}"; touch /.sprite/agent/x 2>&1; kill -0 1 2>/dev/null; echo "kill=$?"; kill -0 2 2>/dev/null; echo "agent=$?"; dpkg-statoverride --add root root 0755 /workspace 2>/dev/null; echo "dpkg=$?"';
    const r = await wsExec(url(), `/v1/sprites/svc/exec?${execQuery(['bash', '-c', script])}`);
    expect(r.stdout).toMatch(/mount=[1-9]/);
    expect(r.stdout).toMatch(/touch: cannot touch '\/\.sprite\/agent\/x': Read-only file system/);
    expect(r.stdout).toMatch(/kill=1\nagent=1\n/);
  });
});
