/**
 * The `/.sprite` tree on the in-memory engines (`shell`, `interpreter`): `/.sprite/llm.txt`, `/.sprite/version.txt`,
 * `/.sprite/docs/`, `/.sprite/bin/{sprite-env,curl-sprite-api,sprite-browser}`, `/.sprite/logs/services/` (the
 * sprite user's), root's files the fs API shows with their owners, `sprite-env` answering info, version, services,
 * checkpoints and tasks from the same model as the public API, and (shell) `curl-sprite-api` and `sprite-browser`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, execQuery, startTestServer, wsExec, TOKEN } from '../../support/server.ts';
import type { RunningServer } from '../../../src/server/server.ts';
import { LLM_TXT, SPRITE_BROWSER_SCRIPT, VERSION_TEXT } from '../../../src/protocol/sprite-tree.ts';
import { MEMORY_LANGUAGES_MD, spriteDocs } from '../../../src/protocol/sprite-docs.ts';

const run = (srv: RunningServer, sprite: string, argv: string[]) => wsExec(srv.url, `/v1/sprites/${sprite}/exec?${execQuery(argv)}`);

describe.each(['shell', 'interpreter'] as const)('the /.sprite tree on the %s engine', (engine) => {
  let srv: RunningServer;
  let call: ReturnType<typeof api>;
  beforeAll(async () => {
    srv = await startTestServer(engine, { token: TOKEN });
    call = api(srv.url);
    expect((await call('POST', '/v1/sprites', { name: 'box' })).status).toBe(201);
  });
  afterAll(() => srv.close());

  it('llm.txt and version.txt read from inside; the fs API lists the tree with the files 0644 and the shim 0755', async () => {
    const llm = await run(srv, 'box', ['cat', '/.sprite/llm.txt']);
    expect([llm.exitCode, llm.stdout]).toEqual([0, LLM_TXT]);
    expect(llm.stdout.split('\n')[0]).toMatch(/^# This machine is a Sprite/);
    const version = await run(srv, 'box', ['cat', '/.sprite/version.txt']);
    expect(version.stdout).toBe(`${VERSION_TEXT}\n`);
    const listing = await call('GET', '/v1/sprites/box/fs/list?path=/.sprite');
    const entries = Object.fromEntries(listing.json.entries.map((e: { name: string; isDir: boolean; mode: string }) => [e.name, [e.isDir, e.mode.slice(-3)]]));
    expect(entries).toMatchObject({ 'llm.txt': [false, '644'], 'version.txt': [false, '644'], bin: [true, '755'], docs: [true, '755'], logs: [true, '755'] });
    const bin = await call('GET', '/v1/sprites/box/fs/list?path=/.sprite/bin');
    expect(bin.json.entries.find((e: { name: string }) => e.name === 'sprite-env')).toMatchObject({ isDir: false, mode: expect.stringMatching(/755$/) });
    const logs = await call('GET', '/v1/sprites/box/fs/list?path=/.sprite/logs');
    expect(logs.json.entries.find((e: { name: string }) => e.name === 'services')).toMatchObject({ isDir: true });
  });

  it('/.sprite/docs: the five files, root’s, 0644, with their texts (languages.md the in-memory engines’ own); llm.txt names them', async () => {
    const listing = await call('GET', '/v1/sprites/box/fs/list?path=/.sprite/docs');
    const files = listing.json.entries.map((e: { name: string; mode: string }) => [e.name, e.mode.slice(-3)]).sort();
    expect(files).toEqual([['agent-context.md', '644'], ['checkpoints.md', '644'], ['languages.md', '644'], ['networking.md', '644'], ['services.md', '644']]);
    for (const [path, text] of spriteDocs(MEMORY_LANGUAGES_MD)) {
      const got = await call('GET', `/v1/sprites/box/fs/read?path=${encodeURIComponent(path)}`);
      expect(got.text, path).toBe(text);
      expect(LLM_TXT).toContain(path);
    }
    const bin = await call('GET', '/v1/sprites/box/fs/list?path=/.sprite/bin');
    expect(bin.json.entries.map((e: { name: string; mode: string }) => [e.name, e.mode.slice(-3)]).sort()).toEqual([['curl-sprite-api', '755'], ['sprite-browser', '755'], ['sprite-env', '755']]);
    expect((await call('GET', `/v1/sprites/box/fs/read?path=${encodeURIComponent('/usr/local/bin/sprite-browser')}`)).text).toBe(SPRITE_BROWSER_SCRIPT);
  });

  it('sprite-env info (one line of JSON, from the public API’s sprite) and version; --help on a command', async () => {
    const sprite = (await call('GET', '/v1/sprites/box')).json;
    const info = await run(srv, 'box', ['sprite-env', 'info']);
    expect([info.exitCode, info.stderr]).toEqual([0, '']);
    expect(info.stdout).toBe(`${JSON.stringify({ sprite_name: 'box', sprite_id: sprite.id, organization: sprite.organization, sprite_url: sprite.url, version: VERSION_TEXT })}\n`);
    expect(await run(srv, 'box', ['sprite-env', 'version'])).toMatchObject({ exitCode: 0, stdout: `${VERSION_TEXT}\n` });
    const help = await run(srv, 'box', ['sprite-env', 'checkpoints', 'restore', '--help']);
    expect([help.exitCode, help.stdout.split('\n')[0]]).toEqual([0, 'usage: sprite-env checkpoints restore <id>']);
  });

  it('sprite-env creates and lists a service, creates and lists a checkpoint, and manages a task, seen by the public API', async () => {
    const created = await run(srv, 'box', ['sprite-env', 'services', 'create', 'web', '--cmd', 'sleep', '--args', '1000', '--http-port', '8080', '--duration', '0']);
    expect(created.exitCode).toBe(0);
    expect(created.stdout).toContain('"type":"started"');
    const svc = await call('GET', '/v1/sprites/box/services/web');
    expect([svc.status, svc.json.http_port]).toEqual([200, 8080]);
    const listed = await run(srv, 'box', ['sprite-env', 'services', 'list']);
    expect(listed.exitCode).toBe(0);
    expect(JSON.parse(listed.stdout).map((s: { name: string }) => s.name)).toEqual(['web']);

    const before = (await call('GET', '/v1/sprites/box/checkpoints')).json.length;
    const cp = await run(srv, 'box', ['sprite-env', 'checkpoints', 'create', '--comment', 'from inside']);
    expect(cp.exitCode).toBe(0);
    const after = (await call('GET', '/v1/sprites/box/checkpoints')).json;
    expect(after.length).toBe(before + 1);
    expect(after.some((c: { comment?: string }) => c.comment === 'from inside')).toBe(true);
    const inside = await run(srv, 'box', ['sprite-env', 'checkpoints', 'list']);
    expect(JSON.parse(inside.stdout).map((c: { id: string }) => c.id)).toEqual(after.map((c: { id: string }) => c.id));

    const task = await run(srv, 'box', ['sprite-env', 'curl', '-X', 'POST', '/v1/tasks', '-d', '{"name":"job","expire":"10m"}']);
    expect(task.exitCode).toBe(0);
    expect((await call('GET', '/v1/sprites/box/tasks/job')).status).toBe(200);
    const gone = await run(srv, 'box', ['sprite-env', 'curl', '-X', 'DELETE', '/v1/tasks/job']);
    expect(gone.exitCode).toBe(0);
    expect((await call('GET', '/v1/sprites/box/tasks/job')).status).toBe(404);
    await call('POST', '/v1/sprites/box/services/web/stop?timeout=1s');
  });

  it('sprite-env by its /.sprite/bin path and inside sh -c; a refused call exits 1 naming the status; bad usage exits 2', async () => {
    const byPath = await run(srv, 'box', ['sh', '-c', '/.sprite/bin/sprite-env services get web']);
    expect([byPath.exitCode, JSON.parse(byPath.stdout).name]).toEqual([0, 'web']);
    const missing = await run(srv, 'box', ['sprite-env', 'services', 'get', 'nope']);
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain('HTTP 404');
    const bad = await run(srv, 'box', ['sprite-env', 'frobnicate']);
    expect(bad.exitCode).toBe(2);
  });
});

describe('curl-sprite-api, sprite-browser and the newer sprite-env commands on the shell engine', () => {
  let srv: RunningServer;
  let call: ReturnType<typeof api>;
  const sh = (script: string) => run(srv, 'cmds', ['bash', '-c', script]);
  beforeAll(async () => {
    srv = await startTestServer('shell', { token: TOKEN });
    call = api(srv.url);
    expect((await call('POST', '/v1/sprites', { name: 'cmds' })).status).toBe(201);
  });
  afterAll(() => srv.close());

  it('curl-sprite-api: help, a task made through it seen by the public API, /.sprite/bin path, a refused option', async () => {
    const help = await sh('curl-sprite-api --help | head -1; curl-sprite-api | head -1');
    expect(help.stdout).toBe('usage: curl-sprite-api [curl options] <path>\nusage: curl-sprite-api [curl options] <path>\n');
    const made = await sh(`curl-sprite-api -X POST /v1/tasks -d '{"name":"via-csa","expire":"5m"}'`);
    expect([made.exitCode, JSON.parse(made.stdout).name]).toEqual([0, 'via-csa']);
    expect((await call('GET', '/v1/sprites/cmds/tasks/via-csa')).status).toBe(200);
    const listed = await sh('/.sprite/bin/curl-sprite-api -s /v1/tasks');
    expect(JSON.parse(listed.stdout).tasks.map((t: { name: string }) => t.name)).toEqual(['via-csa']);
    expect(await sh('curl-sprite-api -sf /v1/services/nope; echo " rc=$?"')).toMatchObject({ stdout: ' rc=22\n' });
    const refused = await sh('curl-sprite-api -v /v1/services');
    expect([refused.exitCode, refused.stderr]).toEqual([2, 'curl-sprite-api: the option -v is not available without curl; run spritzer with --exec sandbox\n']);
  });

  it('sprite-env services signal, --no-stream, checkpoints get, list --history; restore ends the command that asked', async () => {
    const made = await sh('sprite-env services create w --cmd sleep --args 1000 --no-stream');
    expect(made.exitCode).toBe(0);
    expect(made.stdout.trim().split('\n').map((l) => JSON.parse(l).type)).toEqual(['started', 'complete']);
    expect(await sh('sprite-env services signal w HUP; echo "rc=$?"')).toMatchObject({ stdout: 'rc=0\n' });
    const bad = await sh('sprite-env services signal w NOPE');
    expect([bad.exitCode, bad.stderr]).toEqual([1, 'sprite-env: POST /v1/services/signal: HTTP 400\n']);
    await call('POST', '/v1/sprites/cmds/services/w/stop?timeout=1s');

    await sh('echo one > /home/sprite/f; sprite-env checkpoints create --comment first >/dev/null; sprite-env checkpoints create --comment second >/dev/null');
    const first = await sh('sprite-env checkpoints get v1');
    expect(JSON.parse(first.stdout)).toMatchObject({ id: 'v1', comment: 'first', history: [] });
    expect((await sh('sprite-env checkpoints list --history v1')).stdout).toBe('v2\n');
    const restored = await sh('echo two > /home/sprite/f; sprite-env checkpoints restore v1; echo "not reached"');
    expect(restored.stdout).not.toContain('not reached');
    expect((await sh('cat /home/sprite/f')).stdout).toBe('one\n');
  });

  it('sprite-browser prints what it would open and opens nothing; the read-only in-sprite paths answer and refuse a change', async () => {
    const r = await sh('sprite-browser https://example.com; echo "rc=$?"');
    expect([r.stdout, r.stderr]).toEqual(['rc=0\n', 'sprite-browser: not opened: https://example.com (spritzer attaches no browser to a sprite)\n']);
    expect(JSON.parse((await sh('sprite-env curl /policy/network')).stdout)).toEqual({ rules: [] });
    const del = await sh('sprite-env curl -X DELETE /v1/sprite');
    expect([del.exitCode, del.stderr]).toEqual([1, 'sprite-env: DELETE /v1/sprite: HTTP 404\n']);
    expect((await call('GET', '/v1/sprites/cmds')).status).toBe(200);
  });
});
