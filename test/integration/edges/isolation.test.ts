import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startTestServer, wsExec, execQuery, ENGINES } from '../../support/server.ts';
import type { RunningServer } from '../../../src/server/server.ts';
import { readFileSync } from 'node:fs';
import { PASSWD } from '../../../src/server/machines/memory/linux-skeleton.ts';

/** The host's own /etc/passwd, which no sprite may ever read. */
const HOST_PASSWD = readFileSync('/etc/passwd', 'utf8');

// Security: nothing a request sends may read or write outside its sprite, and one sprite never sees another's
// files or processes (on every engine).
describe.each(ENGINES)('isolation between sprites and from the host (%s engine)', (engine) => {
  let srv: RunningServer;
  let call: ReturnType<typeof api>;
  const sh = (name: string, script: string) => wsExec(srv.url, `/v1/sprites/${name}/exec?${execQuery(['sh', '-c', script])}`);
  beforeAll(async () => {
    srv = await startTestServer(engine);
    call = api(srv.url);
    await call('POST', '/v1/sprites', { name: 'alice' });
    await call('POST', '/v1/sprites', { name: 'bob' });
  });
  afterAll(() => srv.close());

  it("one sprite never sees another's files, through exec or the fs API", async () => {
    await sh('alice', 'echo secret > /home/sprite/secret.txt');
    expect((await call('GET', '/v1/sprites/alice/fs/read?path=/home/sprite/secret.txt')).text.trim()).toBe('secret');
    expect((await call('GET', '/v1/sprites/bob/fs/read?path=/home/sprite/secret.txt')).status).toBe(404);
    const peek = await sh('bob', 'cat /home/sprite/secret.txt');
    expect(peek.stdout).not.toContain('secret');
  });

  it('paths with .. stay inside the sprite and never reach the host filesystem', async () => {
    // A sprite has its own /etc (a Linux skeleton, not the host's): `..` reaches the sprite's /etc/passwd, never the
    // host's.
    const r = await call('GET', '/v1/sprites/alice/fs/read?path=../../../../etc/shadow&workingDir=/home/sprite');
    expect(r.status).toBe(404);
    expect(r.json).toMatchObject({ code: 'ENOENT', path: '/etc/shadow' });
    const own = await call('GET', '/v1/sprites/alice/fs/read?path=../../../../etc/passwd&workingDir=/home/sprite');
    expect(own.text).not.toBe(HOST_PASSWD);
    expect(own.text).toBe(PASSWD);
    const host = await sh('alice', 'cat /etc/passwd; cat ../../../../etc/hostname');
    expect(host.stdout).not.toContain(HOST_PASSWD);
    expect(host.stdout).toBe(`${PASSWD}alice\n`);
    const list = await call('GET', '/v1/sprites/alice/fs/list?path=/');
    expect(list.json.entries.map((e: { name: string }) => e.name)).not.toContain('proc');
  });

  it("one sprite's session list never shows another's commands", async () => {
    const bobSessions = await call('GET', '/v1/sprites/bob/exec');
    expect(bobSessions.json.count).toBe(0);
  });

  it('a service name cannot name a path outside the service log directory', async () => {
    const r = await call('PUT', '/v1/sprites/alice/services/..%2F..%2Fetc%2Fpasswd?duration=0', { cmd: 'true' });
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
    expect((await call('GET', '/v1/sprites/alice/fs/read?path=/etc/passwd')).text).not.toBe(HOST_PASSWD);
  });
});
