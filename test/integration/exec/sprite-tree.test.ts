/**
 * The `/.sprite` tree on the in-memory engines (`shell`, `interpreter`): `/.sprite/llm.txt`, `/.sprite/version.txt`,
 * `/.sprite/bin/sprite-env`, `/.sprite/logs/services/` (the sprite user's), root's files the fs API shows with
 * their owners, and `sprite-env` answering services, checkpoints and tasks from the same model as the public API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, execQuery, startTestServer, wsExec, TOKEN } from '../../support/server.ts';
import type { RunningServer } from '../../../src/server/server.ts';
import { LLM_TXT, VERSION_TEXT } from '../../../src/protocol/sprite-tree.ts';

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
    expect(entries).toMatchObject({ 'llm.txt': [false, '644'], 'version.txt': [false, '644'], bin: [true, '755'], logs: [true, '755'] });
    const bin = await call('GET', '/v1/sprites/box/fs/list?path=/.sprite/bin');
    expect(bin.json.entries.find((e: { name: string }) => e.name === 'sprite-env')).toMatchObject({ isDir: false, mode: expect.stringMatching(/755$/) });
    const logs = await call('GET', '/v1/sprites/box/fs/list?path=/.sprite/logs');
    expect(logs.json.entries.find((e: { name: string }) => e.name === 'services')).toMatchObject({ isDir: true });
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
