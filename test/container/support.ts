/**
 * Test support for the container engine: why its suites cannot run here (printed once per file; nothing skips
 * silently), and the daemon and image they use. `npm run test:container` sets DOCKER_HOST and SPRITZER_TEST_IMAGE
 * (scripts/test-container.sh). Test set-up only; never used by the server.
 */
import Docker from 'dockerode';
import { clientFor } from '../../src/server/machines/container/runtime.ts';
import { defaultDeps, startServer, type RunningServer } from '../../src/server/server.ts';
import { openMachineFactory } from '../../src/server/machines/index.ts';
import type { MachineFactory } from '../../src/server/machines/port.ts';
import { SystemClock } from '../../src/server/core/clock.ts';
import { SequentialIds } from '../../src/server/core/ids.ts';
import { afterAll, beforeAll } from 'vitest';
import { api, TOKEN } from '../support/server.ts';

/** The image the suites run sprites on (built by scripts/test-container.sh). */
export const TEST_IMAGE = process.env.SPRITZER_TEST_IMAGE ?? '';

/** The runtime the suites use: `SPRITZER_TEST_RUNTIME` (`docker` by default, or `podman` on CONTAINER_HOST). */
export const TEST_RUNTIME: 'docker' | 'podman' = process.env.SPRITZER_TEST_RUNTIME === 'podman' ? 'podman' : 'docker';

/** The endpoint of the test runtime's socket. */
const endpoint = (): string | undefined => (TEST_RUNTIME === 'podman' ? process.env.CONTAINER_HOST : process.env.DOCKER_HOST);

/** Why the container suites cannot run ('' when they can): no DOCKER_HOST, daemon not answering, image missing. */
export async function containerSkipReason(): Promise<string> {
  const host = endpoint();
  if (!host) return `${TEST_RUNTIME === 'podman' ? 'CONTAINER_HOST' : 'DOCKER_HOST'} is not set: run npm run test:container (it starts the daemon and builds the image)`;
  if (!TEST_IMAGE) return 'SPRITZER_TEST_IMAGE is not set: run npm run test:container';
  const docker = clientFor(host);
  try {
    await docker.ping();
  } catch (err) {
    return `the daemon at ${host} does not answer (${(err as Error).message})`;
  }
  try {
    await docker.getImage(TEST_IMAGE).inspect();
  } catch {
    return `image ${TEST_IMAGE} is not on the daemon at ${host}`;
  }
  return '';
}

/** Resolves true (after printing why) when the calling file must skip. */
export async function announceSkip(what: string): Promise<boolean> {
  const reason = await containerSkipReason();
  if (reason) console.warn(`${what} skipped: ${reason}`);
  return !!reason;
}

/** A client for the test daemon (DOCKER_HOST, or CONTAINER_HOST for Podman). */
export function testDocker(): Docker {
  return clientFor(endpoint()!);
}

/**
 * A spritzer on the container engine in `namespace`, as `npm start -- --exec container` makes it (it adopts what an
 * earlier one left there); added to `servers`, which the caller closes.
 */
export async function startContainerServer(namespace: string, servers: { add(s: RunningServer): unknown }): Promise<{ srv: RunningServer; machines: MachineFactory }> {
  const clock = new SystemClock();
  const machines = await openMachineFactory('container', { clock, container: { image: TEST_IMAGE, namespace, runtime: TEST_RUNTIME } });
  const srv = await startServer(defaultDeps({ clock, ids: new SequentialIds(), machines, token: TOKEN }));
  servers.add(srv);
  return { srv, machines };
}

/** Removes every container of `namespace`, so nothing an earlier failed run left is adopted. */
export async function cleanNamespace(namespace: string): Promise<void> {
  const docker = testDocker();
  for (const c of await docker.listContainers({ all: true, filters: { label: [`dev.spritzer.namespace=${namespace}`] } })) {
    await docker.getContainer(c.Id).remove({ force: true, v: true });
  }
}

/**
 * For a `describe` that runs a shared suite (test/support/*-suite.ts) on the container engine: starts a server in a
 * clean `namespace` before its tests and, after them, deletes `sprites` and closes it. Returns the server's URL getter.
 */
export function useContainerServer(namespace: string, sprites: readonly string[], timeoutMs = 120_000): () => string {
  const servers = new Set<RunningServer>();
  let srv: RunningServer;
  beforeAll(async () => {
    await cleanNamespace(namespace);
    ({ srv } = await startContainerServer(namespace, servers));
  }, timeoutMs);
  afterAll(async () => {
    for (const s of servers) {
      for (const name of sprites) await api(s.url)('DELETE', `/v1/sprites/${name}`).catch(() => undefined);
      await s.close().catch(() => undefined);
    }
  });
  return () => srv.url;
}
