import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startTestServer, wsExec, execQuery } from '../../support/server.ts';
import type { RunningServer } from '../../../src/server/server.ts';

// The Linux world around the shell engine (src/server/machines/memory/shell/world.ts: the files a new sprite has,
// the commands spritzer adds, the loud failures) through the server (WebSocket exec, HTTP exec, fs API) on the
// default `shell` engine.
// The per-input values are in src/server/machines/memory/shell/world.test.ts; the fs API's ENAMETOOLONG/NUL answers are in
// test/integration/edges/limits.test.ts.
describe('the shell engine as a client sees it', () => {
  let srv: RunningServer;
  let call: ReturnType<typeof api>;
  const sh = (script: string, dir?: string) => wsExec(srv.url, `/v1/sprites/box/exec?${execQuery(['sh', '-c', script], { dir })}`);
  beforeAll(async () => {
    srv = await startTestServer('shell');
    call = api(srv.url);
    await call('POST', '/v1/sprites', { name: 'box' });
  });
  afterAll(() => srv.close());

  it('a new sprite has /etc/hostname (its name), /var/tmp and /usr/bin, through exec and the fs API', async () => {
    expect((await sh('cat /etc/hostname; test -d /var/tmp && test -d /usr/bin && echo dirs')).stdout).toBe('box\ndirs\n');
    expect((await call('GET', '/v1/sprites/box/fs/read?path=/etc/hostname')).text).toBe('box\n');
    const names = (await call('GET', '/v1/sprites/box/fs/list?path=/')).json.entries.map((e: { name: string }) => e.name);
    expect(names).toEqual(expect.arrayContaining(['bin', 'etc', 'home', 'tmp', 'usr', 'var']));
  });

  it("python3 -c 'print(6*7)' prints 42 over WebSocket exec", async () => {
    const r = await wsExec(srv.url, `/v1/sprites/box/exec?${execQuery(['python3', '-c', 'print(6*7)'])}`);
    expect([r.stdout, r.stderr, r.exitCode]).toEqual(['42\n', '', 0]);
  }, 60_000);

  it('cat, wc and ls of a symlink loop say "Too many levels of symbolic links", as bash does and as the fs API answers ELOOP', async () => {
    const r = await sh('ln -s /tmp/loop-b /tmp/loop-a; ln -s /tmp/loop-a /tmp/loop-b; cat /tmp/loop-a; echo "cat=$?"; wc -c /tmp/loop-a; ls /tmp/loop-b; cat /tmp/none');
    expect(r.stdout).toBe('cat=1\n');
    expect(r.stderr).toBe(
      'cat: /tmp/loop-a: Too many levels of symbolic links\n' +
        'wc: /tmp/loop-a: Too many levels of symbolic links\n' +
        "ls: cannot access '/tmp/loop-b': Too many levels of symbolic links\n" +
        'cat: /tmp/none: No such file or directory\n',
    );
    const fsAnswer = await call('GET', '/v1/sprites/box/fs/read?path=/tmp/loop-a');
    expect(fsAnswer.json).toMatchObject({ code: 'ELOOP' });
  });

  it('git runs over the sprite\'s files: a repository made by one exec is there for the next', async () => {
    const init = await sh('cd /tmp && git init -q r && cd r && echo a > a && git add a && git -c user.name=A -c user.email=a@b commit -qm first');
    expect([init.stderr, init.exitCode]).toEqual(['', 0]);
    const r = await sh('cd /tmp/r && git log --format=%s && git status --porcelain && git --version');
    expect([r.stdout, r.stderr, r.exitCode]).toEqual(['first\ngit version 2.43.0\n', '', 0]);
  });

  it('git push answers that it needs --exec sandbox, exit 2', async () => {
    const r = await sh('cd /tmp && git init -q p && cd p && git push origin master');
    expect([r.stdout, r.stderr, r.exitCode]).toEqual(['', 'git: git push is not available in the shell engine; run spritzer with --exec sandbox\n', 2]);
  });

  it('a name over 255 bytes inside exec is "File name too long", and nothing is created', async () => {
    const long = 'n'.repeat(256);
    const r = await sh(`touch ${long}; echo $?`);
    expect([r.stdout, r.stderr]).toEqual(['1\n', `touch: cannot touch '${long}': File name too long\n`]);
    expect((await call('GET', '/v1/sprites/box/fs/list?path=/home/sprite')).json.count).toBe(0);
  });

  it('an exec dir over 255 bytes or with a NUL byte is refused with 400 before it starts', async () => {
    const long = `/tmp/${'d'.repeat(256)}`;
    await expect(sh('true', long)).rejects.toMatchObject({ status: 400, body: expect.stringContaining(`chdir ${long}: file name too long`) });
    await expect(sh('true', '/tmp/a\0b')).rejects.toMatchObject({ status: 400, body: expect.stringContaining('invalid argument') });
    const http = await call('POST', `/v1/sprites/box/exec?${execQuery(['pwd'], { dir: '/tmp/a\0b' })}`);
    expect(http.status).toBe(400);
    expect(http.json.error).toBe('invalid_request');
  });
});
