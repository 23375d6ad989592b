/**
 * The environment of an exec on the shell engine matches a fresh Sprite's (docs/fidelity.md "Exec environment"):
 * the default variables, `TERM` only with a TTY, the user, host name and directory; and a request that sends `env`
 * gets exactly that environment, nothing merged in (docs/wire-reference.md §4.2). The interpreter engine has no
 * variables or `env` command (its fixed command table), so it is not probed here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startTestServer, TOKEN } from '../../support/server.ts';
import type { RunningServer } from '../../../src/server/server.ts';
import { envInside, FRESH_ENV, linesInside } from '../../support/exec-environment.ts';

describe('exec environment on the shell engine', () => {
  let srv: RunningServer;
  beforeAll(async () => {
    srv = await startTestServer('shell', { token: TOKEN });
    expect((await api(srv.url)('POST', '/v1/sprites', { name: 'envbox' })).status).toBe(201);
  });
  afterAll(() => srv.close());

  it('without env: exactly the fresh Sprite variables; a TTY adds TERM=xterm-256color', async () => {
    expect(await envInside(srv.url, 'envbox')).toEqual(FRESH_ENV);
    const tty = await envInside(srv.url, 'envbox', { tty: true });
    // Known shell-engine defect, left to the shell's commands: just-bash's `env` prints `?=<status>` after an earlier
    // command in the same script, and a TTY script starts with `exec 2>&1;`. Everything else must match.
    delete tty['?'];
    expect(tty).toEqual({ ...FRESH_ENV, TERM: 'xterm-256color' });
  });

  it('whoami, hostname, pwd and the variables as a script reads them', async () => {
    // No TERM in a fresh exec's environment: bash gives itself TERM=dumb, unexported (variables.c set_if_not).
    expect(await linesInside(srv.url, 'envbox', 'whoami; hostname; pwd; echo "$SHELL|$HOME|$USER|$LANG|$TERM"; env | grep -c ^TERM=')).toEqual([
      'sprite',
      'envbox',
      '/home/sprite',
      '/bin/bash|/home/sprite|sprite|C.UTF-8|dumb',
      '0',
    ]);
  });

  it('/.sprite/bin is on PATH after the system directories; its scripts answer with it first or alone on PATH', async () => {
    expect(await linesInside(srv.url, 'envbox', 'command -v sprite-env; command -v node')).toEqual(['/usr/bin/sprite-env', '/usr/bin/node']);
    // The scripts name the engine's commands by path: with /.sprite/bin first they must not find themselves again.
    const lines = await linesInside(srv.url, 'envbox', 'PATH=/.sprite/bin; sprite-env version; curl-sprite-api --help >/dev/null; echo "rc=$?"');
    expect(lines[0]).toMatch(/^v\d/);
    expect(lines.at(-1)).toBe('rc=0');
  });

  it('with env: the whole environment is replaced (no PATH, HOME or USER), as production does', async () => {
    expect(await envInside(srv.url, 'envbox', { env: ['API_KEY=k1'] })).toEqual({ API_KEY: 'k1', PWD: '/home/sprite' });
    // bash gives itself its compiled-in PATH, unexported (so `env` above lists none), and finds programs on it.
    expect(await linesInside(srv.url, 'envbox', 'echo "[$PATH][$HOME][$API_KEY]"; ls -d /tmp', { env: ['API_KEY=k1'] })).toEqual([
      '[/usr/local/bin:/usr/local/sbin:/usr/bin:/usr/sbin:/bin:/sbin:.][][k1]',
      '/tmp',
    ]);
  });
});
