/**
 * Adoption after a restart (docs/container.md "Restarts"): a spritzer on the container engine stops as `spritzer` does
 * on SIGTERM (the factory detaches, then the server closes), a new spritzer starts on the same daemon and namespace,
 * and the sprite is back: listed with its fields (kept on spritzer's host: what root inside the container writes is not
 * believed), its disk kept, exec working, and deleting it removes the container.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, execQuery, wsExec } from '../support/server.ts';
import type { RunningServer } from '../../src/server/server.ts';
import { announceSkip, cleanNamespace, startContainerServer, testDocker } from './support.ts';

const NAMESPACE = 'ctest-adopt';
const skip = await announceSkip('container adoption', {
  kubernetes: `it forges and inspects containers through the Docker Engine API; adoption on Kubernetes is test/k8s/real-cluster.test.ts (a restarted spritzer adopts the pod)`,
});
const servers = new Set<RunningServer>();

const start = () => startContainerServer(NAMESPACE, servers);

beforeAll(async () => {
  if (skip) return;
  await cleanNamespace(NAMESPACE);
});
afterAll(async () => {
  for (const s of servers) await s.close().catch(() => undefined);
});

describe.skipIf(skip)('container engine: a restarted spritzer adopts its sprites', () => {
  it('the sprite is listed again with its fields, its files are there, exec works, and delete removes the container', async () => {
    const first = await start();
    let call = api(first.srv.url);
    const created = await call('POST', '/v1/sprites', { name: 'keeper', labels: ['team-a'], url_settings: { auth: 'public' } });
    expect(created.status).toBe(201);
    const wrote = await wsExec(first.srv.url, `/v1/sprites/keeper/exec?${execQuery(['bash', '-c', 'echo kept across restarts > /home/sprite/note'])}`);
    expect(wrote.exitCode).toBe(0);
    expect((await call('PUT', '/v1/sprites/keeper', { labels: ['team-b'] })).status).toBe(200);
    const before = (await call('GET', '/v1/sprites/keeper')).json as Record<string, unknown>;
    // Root inside the container plants a record of its own: spritzer keeps its records on its host, not there.
    const forge = await testDocker().getContainer(`${NAMESPACE}-keeper`).exec({
      Cmd: ['sh', '-c', `echo '{"createdAt":1,"labels":["forged"],"urlSettings":{"auth":"public"}}' > /.sprite/record.json`],
      User: '0',
    });
    const output = await forge.start({});
    await new Promise((resolve) => output.on('end', resolve).resume());
    await expect.poll(async () => (await forge.inspect()).ExitCode).toBe(0);

    // Stop as the `spritzer` command does on SIGTERM: the daemon and the container stay.
    first.machines.detach!();
    await first.srv.close();
    const info = await testDocker().getContainer(`${NAMESPACE}-keeper`).inspect();
    expect(info.Config.Labels['dev.spritzer.sprite']).toBe('keeper');

    const second = await start();
    call = api(second.srv.url);
    const list = (await call('GET', '/v1/sprites')).json as { sprites: Array<Record<string, unknown>> };
    expect(list.sprites.map((s) => s.name)).toEqual(['keeper']);
    const after = (await call('GET', '/v1/sprites/keeper')).json as Record<string, unknown>;
    expect(after).toMatchObject({ id: before.id, name: 'keeper', created_at: before.created_at, labels: ['team-b'], url_settings: { auth: 'public' } });

    const read = await wsExec(second.srv.url, `/v1/sprites/keeper/exec?${execQuery(['cat', '/home/sprite/note'])}`);
    expect(read.stdout).toBe('kept across restarts\n');
    expect(read.exitCode).toBe(0);

    expect((await call('DELETE', '/v1/sprites/keeper')).status).toBe(204);
    await expect(testDocker().getContainer(`${NAMESPACE}-keeper`).inspect()).rejects.toMatchObject({ statusCode: 404 });
  });
});

describe.skipIf(skip)('container engine: a spritzer that stops while a sprite is being created', () => {
  // The create's client is cut by the shutdown (a killed test runner, say): the sprite was never made, so neither an
  // ephemeral server (no detach: its sprites end with it) nor a detaching one (the next start adopts what was made)
  // may leave its half-made container behind.
  it.each([['ephemeral', false], ['detaching', true]] as const)('%s: the half-made container is removed', async (_kind, detach) => {
    const s = await start();
    const name = `half-${detach ? 'd' : 'e'}`;
    const creating = api(s.srv.url)('POST', '/v1/sprites', { name }).catch((err: unknown) => err);
    const container = testDocker().getContainer(`${NAMESPACE}-${name}`);
    await expect.poll(async () => (await container.inspect().catch(() => undefined)) !== undefined, { timeout: 30_000, interval: 20 }).toBe(true);
    if (detach) s.machines.detach!();
    await s.srv.close();
    servers.delete(s.srv);
    await creating;
    await expect(container.inspect()).rejects.toMatchObject({ statusCode: 404 });
  }, 60_000);
});
