/**
 * Test support for the container engine: why its suites cannot run here (printed once per file; nothing skips
 * silently), and the daemon and image they use. `npm run test:container` sets DOCKER_HOST and SPRITZER_TEST_IMAGE
 * (scripts/test-container.sh). With SPRITZER_TEST_RUNTIME=kubernetes the runtime-agnostic suites run on the local
 * cluster instead (`npm run test:container:k8s`: KUBECONFIG from `npm run cluster:up`, its images; each suite's
 * namespace made in the cluster). Test set-up only; never used by the server.
 */
import Docker from 'dockerode';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { clientFor } from '../../src/server/machines/container/runtime.ts';
import { defaultDeps, startServer, type RunningServer } from '../../src/server/server.ts';
import { openMachineFactory } from '../../src/server/machines/index.ts';
import type { MachineFactory } from '../../src/server/machines/port.ts';
import { SystemClock } from '../../src/server/core/clock.ts';
import { SequentialIds } from '../../src/server/core/ids.ts';
import { afterAll, beforeAll } from 'vitest';
import { api, TOKEN } from '../support/server.ts';

/** The runtime the suites use: `SPRITZER_TEST_RUNTIME` (`docker` by default, `podman` on CONTAINER_HOST, or `kubernetes` on KUBECONFIG). */
export const TEST_RUNTIME: 'docker' | 'podman' | 'kubernetes' =
  process.env.SPRITZER_TEST_RUNTIME === 'podman' ? 'podman' : process.env.SPRITZER_TEST_RUNTIME === 'kubernetes' ? 'kubernetes' : 'docker';

/** The image the suites run sprites on (built by scripts/test-container.sh; on Kubernetes the one cluster:up imports). */
export const TEST_IMAGE = process.env.SPRITZER_TEST_IMAGE ?? (TEST_RUNTIME === 'kubernetes' ? 'docker.io/local/sprite:1' : '');

/** Kubernetes only: the image whose init container copies the agent into each pod (the one cluster:up imports). */
export const TEST_AGENT_IMAGE: string | undefined = TEST_RUNTIME === 'kubernetes' ? (process.env.SPRITZER_TEST_AGENT_IMAGE ?? 'docker.io/local/spritzer-agent:1') : undefined;

/** The suites' container settings for `namespace`: image, runtime and (Kubernetes) agent image. */
export function testContainer(namespace: string): { image: string; namespace: string; runtime: typeof TEST_RUNTIME; agentImage?: string } {
  return { image: TEST_IMAGE, namespace, runtime: TEST_RUNTIME, ...(TEST_AGENT_IMAGE ? { agentImage: TEST_AGENT_IMAGE } : {}) };
}

/** The endpoint of the test runtime's socket. */
const endpoint = (): string | undefined => (TEST_RUNTIME === 'podman' ? process.env.CONTAINER_HOST : process.env.DOCKER_HOST);

/** The cluster's core API (KUBECONFIG) on the kubernetes test runtime. */
function testKube(): CoreV1Api {
  const config = new KubeConfig();
  config.loadFromDefault();
  return config.makeApiClient(CoreV1Api);
}

/** Why the container suites cannot run ('' when they can): no DOCKER_HOST, daemon not answering, image missing. */
export async function containerSkipReason(): Promise<string> {
  if (TEST_RUNTIME === 'kubernetes') {
    if (!process.env.KUBECONFIG) return 'KUBECONFIG is not set: run npm run cluster:up, then npm run test:container:k8s';
    try {
      await testKube().listNode();
    } catch (err) {
      return `the cluster of ${process.env.KUBECONFIG} does not answer (${(err as Error).message})`;
    }
    return '';
  }
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

/**
 * Resolves true (after printing why) when the calling file must skip: the runtime is not reachable, or the suite
 * does not apply to it (`notOn`: the runtimes it cannot run on, with the reason).
 */
export async function announceSkip(what: string, notOn: Partial<Record<typeof TEST_RUNTIME, string>> = {}): Promise<boolean> {
  const reason = notOn[TEST_RUNTIME] ? `not on the ${TEST_RUNTIME} runtime: ${notOn[TEST_RUNTIME]}` : await containerSkipReason();
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
  const machines = await openMachineFactory('container', { clock, container: testContainer(namespace) });
  const srv = await startServer(defaultDeps({ clock, ids: new SequentialIds(), machines, token: TOKEN }));
  servers.add(srv);
  return { srv, machines };
}

/**
 * Removes every container of `namespace`, so nothing an earlier failed run left is adopted. On Kubernetes: makes
 * the namespace when the cluster has none, and deletes its pods.
 */
export async function cleanNamespace(namespace: string): Promise<void> {
  if (TEST_RUNTIME === 'kubernetes') {
    const core = testKube();
    await core.createNamespace({ body: { metadata: { name: namespace } } }).catch((err) => {
      if ((err as { code?: number }).code !== 409) throw err;
    });
    await core.deleteCollectionNamespacedPod({ namespace, gracePeriodSeconds: 0 });
    for (let i = 0; i < 120 && (await core.listNamespacedPod({ namespace })).items.length; i++) await new Promise((r) => setTimeout(r, 500));
    return;
  }
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
