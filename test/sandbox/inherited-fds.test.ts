/**
 * A descriptor spritzer inherited from whoever started it (a supervisor's pipe, a log file, a CI runner's channel),
 * open without close-on-exec, stays outside every sprite: the processes inside see only their own descriptors, as on
 * a fresh machine, and none of them can write into the host's pipe.
 */
import { readlinkSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { api, execQuery, TOKEN, wsExec } from '../support/server.ts';
import { killChildren, startSpritzer, stopSpritzer } from '../support/spritzer-process.ts';
import { announceSkip } from './support.ts';

const skip = announceSkip('sandbox inherited descriptors');
afterEach(killChildren);

describe.skipIf(skip)('a descriptor spritzer inherited', () => {
  it('is open in no process of a sprite', async () => {
    const { child, url } = await startSpritzer(['--exec', 'sandbox', '--sandbox-spares', '0', '--token', TOKEN], { inheritedFd: 9 });
    try {
      // The pipe's end spritzer holds (what a sprite's process would hold too, were it passed on).
      const pipe = readlinkSync(`/proc/${child.pid}/fd/9`);
      expect(pipe).toMatch(/^(socket|pipe):\[\d+\]$/);
      expect((await api(url)('POST', '/v1/sprites', { name: 'fds' })).status).toBe(201);
      const run = (argv: string[]) => wsExec(url, `/v1/sprites/fds/exec?${execQuery(argv)}`);
      expect((await run(['ls', '/proc/self/fd'])).stdout).toBe('0\n1\n2\n3\n');
      // Root inside looks at every process of the sprite (its init, the agent, this exec).
      const all = await run(['sudo', '-n', 'sh', '-c', 'for f in /proc/[0-9]*/fd/*; do readlink "$f"; done 2>/dev/null | sort -u']);
      expect(all.exitCode).toBe(0);
      expect(all.stdout).toMatch(/socket:\[/); // the agent's own connection: the listing sees every process
      expect(all.stdout.split('\n')).not.toContain(pipe);
    } finally {
      await stopSpritzer(child, 'SIGTERM');
    }
  });
});
