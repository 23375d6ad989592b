/**
 * Commands that outlive their client on the container engine (test/support/outlive-suite.ts): `python3 -m
 * http.server` started with `max_run_after_disconnect=0` answers through `/proxy` past the default linger, is
 * attached, killed, and ended by its linger, its exit, a restore or a restart; and a restarted spritzer, which adopts
 * the container (docs/container.md "Restarts"), lists none of the earlier run's sessions and runs none of them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, execQuery, wsExec } from '../support/server.ts';
import { getViaProxy, httpServer, outliveSuite, sessionsOf, startAndDrop } from '../support/outlive-suite.ts';
import type { RunningServer } from '../../src/server/server.ts';
import { announceSkip, cleanNamespace, startContainerServer } from './support.ts';

const NAMESPACE = 'ctest-outlive';
const skip = await announceSkip('container commands that outlive their client');
const servers = new Set<RunningServer>();

const start = () => startContainerServer(NAMESPACE, servers);

beforeAll(async () => {
  if (skip) return;
  await cleanNamespace(NAMESPACE);
});
afterAll(async () => {
  for (const s of servers) {
    for (const name of ['linger', 'keep']) await api(s.url)('DELETE', `/v1/sprites/${name}`).catch(() => undefined);
    await s.close().catch(() => undefined);
  }
});

describe.skipIf(skip)('a command that outlives its client (container engine)', () => {
  let srv: RunningServer;
  beforeAll(async () => {
    ({ srv } = await start());
    expect((await api(srv.url)('POST', '/v1/sprites', { name: 'linger' })).status).toBe(201);
  }, 120_000);
  afterAll(async () => {
    expect((await api(srv.url)('DELETE', '/v1/sprites/linger')).status).toBe(204);
    await srv.close();
    servers.delete(srv);
  });
  outliveSuite(() => srv.url, 'linger', (n) => httpServer(8760 + n));
});

describe.skipIf(skip)('a restart of spritzer (container engine)', () => {
  it('the adopted sprite lists no session of the earlier run and runs none of them', async () => {
    const server = httpServer(8770);
    const first = await start();
    expect((await api(first.srv.url)('POST', '/v1/sprites', { name: 'keep' })).status).toBe(201);
    const id = await startAndDrop(first.srv.url, 'keep', server);
    expect(await getViaProxy(first.srv.url, 'keep', server.port!)).toMatch(/^HTTP\/1\.0 200/);

    // Stop as the `spritzer` command does on SIGTERM: the container stays, for the next spritzer to adopt.
    first.machines.detach!();
    await first.srv.close();
    servers.delete(first.srv);

    const { srv } = await start();
    expect((await api(srv.url)('GET', '/v1/sprites/keep')).status).toBe(200);
    expect((await sessionsOf(srv.url, 'keep')).size).toBe(0);
    expect((await api(srv.url)('GET', `/v1/sprites/keep/exec/${id}`)).status).toBe(404);
    expect(await getViaProxy(srv.url, 'keep', server.port!)).toBeNull();
    const ps = await wsExec(srv.url, `/v1/sprites/keep/exec?${execQuery(['ps', 'ax', '-o', 'args'])}`);
    expect(ps.stdout).not.toContain('http.server');
  }, 180_000);
});
