/**
 * The environment of an exec in a sandbox sprite matches a fresh Sprite's (docs/fidelity.md "Exec environment"):
 * the default variables, `TERM` only with a TTY, `id`, `whoami`, `hostname`, `pwd`, `umask`, `ulimit -n` and
 * `locale`; a request that sends `env` gets exactly that environment, and a program outside bash's fallback PATH
 * is then not found by name (the documented gotcha), while it is with the default environment.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, execQuery, wsExec, TOKEN, startTestServer } from '../support/server.ts';
import type { RunningServer } from '../../src/server/server.ts';
import { envInside, FRESH_ENV, linesInside } from '../support/exec-environment.ts';
import { announceSkip } from './support.ts';

const skip = announceSkip('sandbox exec environment');
let srv: RunningServer;

beforeAll(async () => {
  if (skip) return;
  srv = await startTestServer('sandbox', { token: TOKEN });
  expect((await api(srv.url)('POST', '/v1/sprites', { name: 'envbox' })).status).toBe(201);
}, 60_000);
afterAll(async () => {
  await srv?.close();
});

describe.skipIf(skip)('exec environment in a sandbox sprite', () => {
  it('without env: exactly the fresh Sprite variables; a TTY adds TERM=xterm-256color', async () => {
    expect(await envInside(srv.url, 'envbox')).toEqual(FRESH_ENV);
    expect(await envInside(srv.url, 'envbox', { tty: true })).toEqual({ ...FRESH_ENV, TERM: 'xterm-256color' });
  });

  it('id, whoami, hostname, pwd, umask, ulimit -n and locale', async () => {
    const lines = await linesInside(srv.url, 'envbox', 'id; whoami; hostname; pwd; umask; ulimit -n; locale | head -1');
    expect(lines.slice(0, 5)).toEqual(['uid=1001(sprite) gid=1001(sprite) groups=1001(sprite),27(sudo),100(users)', 'sprite', 'envbox', '/home/sprite', '0022']);
    expect(Number(lines[5])).toBeGreaterThanOrEqual(1024);
    expect(lines[6]).toBe('LANG=C.UTF-8');
  });

  it('with env: the whole environment is replaced; a program in ~/.local/bin is then not found by name', async () => {
    expect(await envInside(srv.url, 'envbox', { env: ['API_KEY=k1'] })).toEqual({ API_KEY: 'k1', PWD: '/home/sprite' });
    const call = api(srv.url);
    const put = await call('PUT', '/v1/sprites/envbox/fs/write?path=/home/sprite/.local/bin/mytool&mkdirParents=true&mode=0755', '#!/bin/sh\necho "tool sees [$API_KEY]"\n');
    expect(put.status).toBe(200);
    // bash's own fallback PATH when none is set (/usr/local/bin:…:/bin:.) has no ~/.local/bin: 127.
    const replaced = await wsExec(srv.url, `/v1/sprites/envbox/exec?${execQuery(['bash', '-c', 'mytool'], { env: ['API_KEY=k1'] })}`);
    expect([replaced.exitCode, replaced.stderr]).toEqual([127, 'bash: line 1: mytool: command not found\n']);
    const fresh = await wsExec(srv.url, `/v1/sprites/envbox/exec?${execQuery(['bash', '-c', 'mytool'])}`);
    expect([fresh.exitCode, fresh.stdout]).toEqual([0, 'tool sees []\n']);
    const withPath = await wsExec(srv.url, `/v1/sprites/envbox/exec?${execQuery(['bash', '-c', 'mytool'], { env: ['API_KEY=k1', `PATH=${FRESH_ENV.PATH}`] })}`);
    expect([withPath.exitCode, withPath.stdout]).toEqual([0, 'tool sees [k1]\n']);
  });
});
