/**
 * Nothing a sprite does to its own agent wedges spritzer, on the sandbox engine with the real `spritzer` command
 * (`--agent-timeout 1s`, `--data-dir`): a FIFO read through the fs API is refused at once; with the agent stopped
 * (`kill -STOP`, as root inside can), fs calls fail with 504 ETIMEDOUT in the fs envelope and keep doing so; the
 * sprite can still be deleted (its processes and disk go), and a restart after a crash does not bring it back.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { api, execQuery, TOKEN, wsExec } from '../support/server.ts';
import { killChildren, startSpritzer, stopSpritzer } from '../support/spritzer-process.ts';
import { announceSkip } from './support.ts';

const skip = announceSkip('wedged sandbox sprites');
const dirs: string[] = [];
afterEach(killChildren);
afterAll(() => {
  // A test that failed mid-way left its server killed with the data dir's volume mounted.
  for (const d of dirs) {
    spawnSync('umount', ['-l', join(d, 'vol')]);
    rmSync(d, { recursive: true, force: true });
  }
});

function start(dir: string) {
  return startSpritzer(['--exec', 'sandbox', '--data-dir', dir, '--sandbox-spares', '0', '--agent-timeout', '1s', '--token', TOKEN]);
}

/** The host pid of the one process whose command line is exactly `argv`, or undefined. */
function hostPidOf(argv: string[]): number | undefined {
  const want = argv.join('\0') + '\0';
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8') === want) return Number(name);
    } catch {
      /* gone */
    }
  }
  return undefined;
}

/** The parent pid of host process `pid` (field 4 of /proc/<pid>/stat). */
function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe.skipIf(skip)('a sandbox sprite that wedges its own agent', () => {
  it('gets 400 for a FIFO read, 504 ETIMEDOUT once its agent is stopped, and can still be deleted for good', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spritzer-sbx-wedge-'));
    dirs.push(dir);
    let { child, url } = await start(dir);
    const call = api(url);
    expect((await call('POST', '/v1/sprites', { name: 'wedge' })).status).toBe(201);
    const made = await wsExec(url, `/v1/sprites/wedge/exec?${execQuery(['mkfifo', '/tmp/fifo'])}`);
    expect(made.exitCode, made.stderr).toBe(0);

    // A FIFO is refused at once, and the agent serves the next call.
    const fifo = await call('GET', '/v1/sprites/wedge/fs/read?path=/tmp/fifo&workingDir=/');
    expect(fifo.status).toBe(400);
    expect(fifo.json).toMatchObject({ code: 'EINVAL', path: '/tmp/fifo' });
    expect(fifo.json.error).toMatch(/not a regular file/);
    expect((await call('GET', '/v1/sprites/wedge/fs/read?path=/etc/hostname&workingDir=/')).text).toBe('wedge\n');

    // A service whose parent is the agent leads to the agent's host pid; root inside could stop it just as well.
    const marker = ['sleep', '314159'];
    expect((await call('PUT', '/v1/sprites/wedge/services/marker?duration=0s', { cmd: marker[0], args: [marker[1]] })).status).toBeLessThan(300);
    let sleepPid: number | undefined;
    while (!(sleepPid = hostPidOf(marker))) await new Promise((r) => setTimeout(r, 20));
    const agentPid = parentOf(sleepPid);
    expect(readFileSync(`/proc/${agentPid}/cmdline`, 'utf8')).toContain('/.sprite/agent/agent.mjs');
    process.kill(agentPid, 'SIGSTOP');

    for (const path of ['/etc/hostname', '/etc/hostname']) {
      const read = await call('GET', `/v1/sprites/wedge/fs/read?path=${path}&workingDir=/`);
      expect(read.status).toBe(504);
      expect(read.json).toMatchObject({ code: 'ETIMEDOUT', path });
      // A file read gets ten times the deadline of a call.
      expect(read.json.error).toMatch(/did not answer within 10000 ms/);
    }
    const list = await call('GET', '/v1/sprites/wedge/fs/list?path=/home&workingDir=/');
    expect(list.status).toBe(504);
    expect(list.json.error).toMatch(/did not answer within 1000 ms/);

    // The delete ends the service (its exit never comes from the stopped agent) and the sandbox.
    expect((await call('DELETE', '/v1/sprites/wedge')).status).toBe(204);
    expect(alive(agentPid)).toBe(false);
    expect(alive(sleepPid)).toBe(false);
    expect(readdirSync(join(dir, 'vol', 'layers'))).toStrictEqual([]);
    expect((await call('GET', '/v1/sprites/wedge')).status).toBe(404);

    // A crash right after the delete does not bring the sprite back.
    expect(await stopSpritzer(child, 'SIGKILL')).toBe(null);
    ({ child, url } = await start(dir));
    expect((await api(url)('GET', '/v1/sprites/wedge')).status).toBe(404);
    expect((await api(url)('GET', '/v1/sprites')).json.sprites).toStrictEqual([]);
    expect(await stopSpritzer(child, 'SIGTERM')).toBe(0);
  }, 180_000);
});
