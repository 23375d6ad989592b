/**
 * The Kubernetes runtime under faults, on the real local cluster (`npm run cluster:up`; the two-node faults need
 * `SK8S_NODES=2`), spritzer outside it as a user starts it: each fault answers on spritzer's API with the JSON
 * envelope and a status a client understands (503 `sprite_unavailable`, naming why), and no sprite record is lost.
 *   - a pod that never starts: an image no node has and no registry serves (the kubelet's reason, at once); a pod no
 *     node has room for (Pending, `Unschedulable`, until `--create-timeout`); neither leaves a sprite or a pod;
 *   - RBAC: a service account without `pods/exec` is refused at start, naming the verb and the resource;
 *   - the API server stopped (its pid file) and started again: exec and create answer 503 meanwhile, the record is
 *     kept, and afterwards the sprite answers again with its files (its pod never stopped);
 *   - a node that goes away: its kubelet stopped, then the node deleted; the sprite on the other node keeps
 *     working, the lost one answers 503 until its pod, gone with the node, is made again on the other node; a
 *     drained node's sprite moves at once.
 * Runs when SPRITZER_K8S_KUBECONFIG names the cluster's kubeconfig (`npm run test:k8s` sets it); skips otherwise.
 * It stops and starts the cluster's daemons through scripts/cluster.sh's pid files, and leaves the cluster up.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { RbacAuthorizationV1Api } from '@kubernetes/client-node';
import { api, execQuery, wsExec, TOKEN, type ExecRecord } from '../support/server.ts';
import { killChildren, startSpritzer, stopSpritzer } from '../support/spritzer-process.ts';
import type { ChildProcess } from 'node:child_process';
import { KUBECONFIG, openCluster } from './cluster.ts';

const run = promisify(execFile);
const SPRITE_IMAGE = process.env.SPRITZER_K8S_SPRITE_IMAGE ?? 'docker.io/local/sprite:1';
const AGENT_IMAGE = process.env.SPRITZER_K8S_AGENT_IMAGE ?? 'docker.io/local/spritzer-agent:1';
const NS = 'spritzer-k8s-faults';
const STATE = dirname(KUBECONFIG);
const ROOT = new URL('../..', import.meta.url).pathname;
const KUBECTL = join(ROOT, '.cache/k8s/v1.35.4/bin/kubectl');
/** An image of a registry that is not there (the node's own port 5999, refused at once). */
const ABSENT_IMAGE = '127.0.0.1:5999/local/absent:1';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));


const cluster = await openCluster();
if (cluster.reason) console.warn(`real Kubernetes cluster fault suite skipped: ${cluster.reason}`);
const core = cluster.core!;
const nodeCount = cluster.reason ? 0 : (await core.listNode()).items.length;
const twoNodeReason = cluster.reason || (nodeCount < 2 ? `${nodeCount} node(s): run \`SK8S_NODES=2 npm run cluster:up\`` : '');

const baseArgs = ['--exec', 'container', '--container-runtime', 'kubernetes', '--namespace', NS, '--agent-image', AGENT_IMAGE, '--token', TOKEN];
const spritzerArgs = [...baseArgs, '--sprite-image', SPRITE_IMAGE, '--create-timeout', '60s'];
const started: ChildProcess[] = [];

/** spritzer with `args`, KUBECONFIG `kubeconfig` in its environment. */
async function startWith(args: string[], kubeconfig = KUBECONFIG): Promise<{ child: ChildProcess; url: string; call: ReturnType<typeof api> }> {
  const before = process.env.KUBECONFIG;
  process.env.KUBECONFIG = kubeconfig;
  try {
    const { child, url } = await startSpritzer(args);
    started.push(child);
    return { child, url, call: api(url) };
  } finally {
    process.env.KUBECONFIG = before;
  }
}

async function pods(): Promise<string[]> {
  return (await core.listNamespacedPod({ namespace: NS })).items.map((p) => p.metadata!.name!);
}

/** Polls `fn` every `everyMs` until it returns a truthy value or `ms` passed; resolves with the last value. */
async function waitFor<T>(fn: () => Promise<T>, ms: number, everyMs = 1000): Promise<T> {
  const deadline = Date.now() + ms;
  let v = await fn();
  while (!v && Date.now() < deadline) {
    await sleep(everyMs);
    v = await fn();
  }
  return v;
}

/** An exec over WebSocket: its record, or the refused handshake's status and JSON body. */
async function tryExec(url: string, name: string, argv: string[]): Promise<{ rec?: ExecRecord; status?: number; body?: { error?: string; message?: string } }> {
  try {
    return { rec: await wsExec(url, `/v1/sprites/${name}/exec?${execQuery(argv)}`) };
  } catch (err) {
    const e = err as { status?: number; body?: string };
    if (e.status === undefined) throw err;
    return { status: e.status, body: JSON.parse(e.body || '{}') };
  }
}

/** Stops the cluster daemon of pid file `name` (scripts/cluster.sh keeps them in .cache/k8s/state/pids). */
async function stopDaemon(name: string): Promise<void> {
  const pid = Number(readFileSync(join(STATE, 'pids', name), 'utf8'));
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  process.kill(pid, 'SIGTERM');
  for (let i = 0; i < 150 && alive(); i++) await sleep(100);
  if (alive()) process.kill(pid, 'SIGKILL');
  for (let i = 0; i < 50 && alive(); i++) await sleep(100);
}

/** Starts again whatever daemon of the cluster is not running (`cluster.sh up` starts only those). */
async function clusterUp(): Promise<void> {
  await run('bash', [join(ROOT, 'scripts/cluster.sh'), 'up'], { env: { ...process.env, SK8S_NODES: String(nodeCount) }, timeout: 300_000 });
}

beforeAll(async () => {
  if (cluster.reason) return;
  await core.createNamespace({ body: { metadata: { name: NS } } }).catch((err) => {
    if ((err as { code?: number }).code !== 409) throw err;
  });
  await core.deleteCollectionNamespacedPod({ namespace: NS, gracePeriodSeconds: 0 });
  await waitFor(async () => (await pods()).length === 0, 60_000, 500);
}, 90_000);

afterAll(async () => {
  if (cluster.reason) return;
  for (const c of started) if (c.exitCode === null) await stopSpritzer(c, 'SIGTERM').catch(() => undefined);
  killChildren();
  await core.deleteCollectionNamespacedPod({ namespace: NS, gracePeriodSeconds: 0 }).catch(() => undefined);
}, 60_000);

describe.skipIf(!!cluster.reason)('faults: a pod that never starts', () => {
  it('an image no node has and no registry serves: create answers 503 with the kubelet\'s reason; no sprite, no pod left', async () => {
    // A registry that refuses at once (nothing listens on the node's port 5999): the kubelet's pull fails, then backs off.
    const s = await startWith([...baseArgs, '--sprite-image', ABSENT_IMAGE, '--create-timeout', '60s']);
    const t0 = Date.now();
    const res = await s.call('POST', '/v1/sprites', { name: 'noimage' });
    expect(res.status, res.text).toBe(503);
    expect(res.json.error).toBe('sprite_unavailable');
    expect(res.json.message).toMatch(/^pod sprite-noimage cannot start: container sprite: ImagePullBackOff: Back-off pulling image "127\.0\.0\.1:5999\/local\/absent:1"/);
    expect(Date.now() - t0).toBeLessThan(55_000);
    expect((await s.call('GET', '/v1/sprites/noimage')).status).toBe(404);
    expect((await s.call('GET', '/v1/sprites')).json.sprites).toEqual([]);
    expect(await waitFor(async () => !(await pods()).includes('sprite-noimage'), 30_000, 500)).toBe(true);
    await stopSpritzer(s.child, 'SIGTERM');
  }, 150_000);

  it('a pod no node has room for: Pending until --create-timeout, then 503 naming the scheduler\'s reason; no sprite, no pod left', async () => {
    const s = await startWith([...baseArgs, '--sprite-image', SPRITE_IMAGE, '--sprite-memory', '512gb', '--create-timeout', '10s']);
    const t0 = Date.now();
    const res = await s.call('POST', '/v1/sprites', { name: 'toobig' });
    const took = Date.now() - t0;
    expect(res.status, res.text).toBe(503);
    expect(res.json.error).toBe('sprite_unavailable');
    expect(res.json.message).toMatch(/pod sprite-toobig is not running after 10 s \(--create-timeout; phase Pending; Unschedulable: 0\/\d+ nodes are available: .*Insufficient memory/);
    expect(took).toBeGreaterThanOrEqual(9_000);
    expect(took).toBeLessThan(40_000);
    expect((await s.call('GET', '/v1/sprites/toobig')).status).toBe(404);
    expect(await waitFor(async () => !(await pods()).includes('sprite-toobig'), 30_000, 500)).toBe(true);
    await stopSpritzer(s.child, 'SIGTERM');
  }, 90_000);
});

describe.skipIf(!!cluster.reason)('faults: RBAC', () => {
  it('a service account without pods/exec is refused at start, naming the verb and resource it lacks', async () => {
    const rbac = cluster.config!.makeApiClient(RbacAuthorizationV1Api);
    const ignoreExists = (err: unknown) => {
      if ((err as { code?: number }).code !== 409) throw err;
    };
    await core.createNamespacedServiceAccount({ namespace: NS, body: { metadata: { name: 'limited' } } }).catch(ignoreExists);
    await rbac
      .createNamespacedRole({
        namespace: NS,
        body: {
          metadata: { name: 'limited' },
          rules: [
            { apiGroups: [''], resources: ['pods'], verbs: ['create', 'get', 'list', 'delete'] },
            { apiGroups: [''], resources: ['pods/log'], verbs: ['get'] },
          ],
        },
      })
      .catch(ignoreExists);
    await rbac
      .createNamespacedRoleBinding({
        namespace: NS,
        body: {
          metadata: { name: 'limited' },
          subjects: [{ kind: 'ServiceAccount', name: 'limited', namespace: NS }],
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'limited' },
        },
      })
      .catch(ignoreExists);
    const token = (await core.createNamespacedServiceAccountToken({ name: 'limited', namespace: NS, body: { spec: { audiences: [], expirationSeconds: 600 } } })).status!.token;
    const c = cluster.config!.getCurrentCluster()!;
    const dir = mkdtempSync(join(tmpdir(), 'spritzer-rbac-'));
    const file = join(dir, 'kubeconfig');
    const caData = c.caData ?? Buffer.from(readFileSync(c.caFile!)).toString('base64');
    writeFileSync(
      file,
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'local', cluster: { server: c.server, 'certificate-authority-data': caData } }],
        users: [{ name: 'limited', user: { token } }],
        contexts: [{ name: 'local', context: { cluster: 'local', user: 'limited', namespace: NS } }],
        'current-context': 'local',
      }),
    );
    try {
      await expect(startWith(spritzerArgs, file)).rejects.toThrow(
        `the Kubernetes user limited at ${c.server} may not create pods/exec in namespace ${NS} (RBAC): bind it a Role with these verbs, as deploy/k8s/rbac.yaml does`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe.skipIf(!!cluster.reason)('faults: the API server restarts', () => {
  it('meanwhile exec and create answer 503 naming the API, GET keeps the record; afterwards the sprite answers again with its files', async () => {
    const s = await startWith(spritzerArgs);
    expect((await s.call('POST', '/v1/sprites', { name: 'api1' })).status).toBe(201);
    expect((await tryExec(s.url, 'api1', ['bash', '-c', 'echo kept > /home/sprite/note'])).rec?.exitCode).toBe(0);

    const inFlight = tryExec(s.url, 'api1', ['bash', '-c', 'sleep 20; echo done']).catch((err: Error) => ({ error: err.message }));
    await sleep(1000);
    await stopDaemon('kube-apiserver');
    try {
      // The command in flight ends (its stream went through the API server), without its output.
      const flight = (await Promise.race([inFlight, sleep(30_000).then(() => 'hung')])) as Awaited<typeof inFlight> | 'hung';
      expect(flight).not.toBe('hung');
      const rec = (flight as { rec?: ExecRecord }).rec;
      console.log(`API server stopped: the exec in flight ended with ${rec ? `exit code ${rec.exitCode}, stdout ${JSON.stringify(rec.stdout)}` : JSON.stringify(flight)}`);
      if (rec) expect([rec.stdout, rec.exitCode === 0]).toEqual(['', false]);

      // The first refusal may be the lost agent connection itself (`sprite unreachable: agent connection lost`); then the
      // restart's reason, naming the API.
      const refused = await waitFor(async () => {
        const r = await tryExec(s.url, 'api1', ['true']);
        return r.status === 503 && r.body?.message?.includes('ECONNREFUSED') ? r : undefined;
      }, 30_000);
      expect(refused?.body?.error).toBe('sprite_unavailable');
      expect(refused?.body?.message).toMatch(/^sprite api1 is unreachable: .*the Kubernetes API at https:\/\/10\.201\.0\.1:6443 answered ECONNREFUSED.*; spritzer tries again every 5 s$/);

      const created = await s.call('POST', '/v1/sprites', { name: 'api2' });
      expect(created.status, created.text).toBe(503);
      expect(created.json).toMatchObject({ error: 'sprite_unavailable' });
      expect(created.json.message).toMatch(/^cannot create pod sprite-api2 in namespace spritzer-k8s-faults: the Kubernetes API at https:\/\/10\.201\.0\.1:6443 answered ECONNREFUSED/);
      expect((await s.call('GET', '/v1/sprites/api1')).status).toBe(200);
      expect((await s.call('GET', '/v1/sprites')).json.sprites.map((x: { name: string }) => x.name)).toEqual(['api1']);
    } finally {
      await clusterUp();
    }
    const back = await waitFor(async () => {
      const r = await tryExec(s.url, 'api1', ['cat', '/home/sprite/note']);
      return r.rec?.exitCode === 0 ? r : undefined;
    }, 60_000);
    expect(back?.rec?.stdout).toBe('kept\n');
    expect((await s.call('POST', '/v1/sprites', { name: 'api2' })).status).toBe(201);
    for (const name of ['api1', 'api2']) expect((await s.call('DELETE', `/v1/sprites/${name}`)).status).toBe(204);
    await stopSpritzer(s.child, 'SIGTERM');
  }, 400_000);
});

describe.skipIf(!!twoNodeReason)('faults: a node goes away (two nodes)', () => {
  const nodeOf = async (name: string) => (await core.readNamespacedPod({ name: `sprite-${name}`, namespace: NS }).catch(() => undefined))?.spec?.nodeName;

  it('kubelet stopped, then the node deleted: the other node\'s sprite keeps working; the lost one answers 503 until its pod is made again on the other node', async () => {
    const s = await startWith(spritzerArgs);
    expect((await s.call('POST', '/v1/sprites', { name: 'node1' })).status).toBe(201);
    // The second sprite on the other node: the first one's node cordoned while it is made.
    const first = (await nodeOf('node1'))!;
    await run(KUBECTL, ['--kubeconfig', KUBECONFIG, 'cordon', first]);
    try {
      expect((await s.call('POST', '/v1/sprites', { name: 'node2' })).status).toBe(201);
    } finally {
      await run(KUBECTL, ['--kubeconfig', KUBECONFIG, 'uncordon', first]);
    }
    for (const name of ['node1', 'node2']) expect((await tryExec(s.url, name, ['bash', '-c', `echo ${name} > /home/sprite/note`])).rec?.exitCode).toBe(0);
    const lostNode = (await nodeOf('node1'))!;
    const otherNode = (await nodeOf('node2'))!;
    expect(lostNode).not.toBe(otherNode);
    const t0 = Date.now();
    const log: string[] = [];
    const say = (what: string) => log.push(`${Math.round((Date.now() - t0) / 1000)} s: ${what}`);

    await stopDaemon(`kubelet-${lostNode}`);
    try {
      say(`kubelet of ${lostNode} stopped`);
      // The lost node's sprite: refused (503) once its agent's stream is gone, not left hanging.
      const refused = await waitFor(async () => {
        const r = await tryExec(s.url, 'node1', ['true']);
        return r.status === 503 ? r : undefined;
      }, 150_000, 2000);
      say(`exec on node1: ${refused?.status} ${refused?.body?.message}`);
      expect(refused?.body?.error).toBe('sprite_unavailable');
      expect(refused?.body?.message).toMatch(/^sprite (node1 is )?unreachable: /);
      expect((await s.call('GET', '/v1/sprites/node1')).status).toBe(200);
      // The other node's sprite is untouched.
      expect((await tryExec(s.url, 'node2', ['cat', '/home/sprite/note'])).rec?.stdout).toBe('node2\n');

      // Once the node controller sees the node silent, the refusal says so.
      const notReady = await waitFor(async () => {
        const r = await tryExec(s.url, 'node1', ['true']);
        return r.body?.message?.includes('does not answer') ? r : undefined;
      }, 120_000, 3000);
      say(`exec on node1 after NotReady: ${notReady?.status} ${notReady?.body?.message}`);
      expect(notReady?.body?.message).toContain(`pod sprite-node1 is on node ${lostNode}, which does not answer`);

      await run(KUBECTL, ['--kubeconfig', KUBECONFIG, 'delete', 'node', lostNode, '--wait=false']);
      say(`node ${lostNode} deleted`);
      // The pod garbage collector deletes the pod of a node that is no more; spritzer makes it again, on the other node.
      const back = await waitFor(async () => {
        const r = await tryExec(s.url, 'node1', ['uname', '-n']);
        return r.rec?.exitCode === 0 ? r : undefined;
      }, 180_000, 3000);
      say(`exec on node1 again: ${back?.rec?.stdout.trim()} on ${await nodeOf('node1')}`);
      expect(back?.rec?.stdout).toBe('node1\n');
      expect(await nodeOf('node1')).toBe(otherNode);
      // A new pod: its emptyDir volumes started empty.
      expect((await tryExec(s.url, 'node1', ['bash', '-c', 'cat /home/sprite/note 2>&1; true'])).rec?.stdout).toMatch(/No such file/);
      expect((await tryExec(s.url, 'node2', ['cat', '/home/sprite/note'])).rec?.stdout).toBe('node2\n');
    } finally {
      console.log(`node fault timeline:\n  ${log.join('\n  ')}`);
      await clusterUp();
    }
    for (const name of ['node1', 'node2']) expect((await s.call('DELETE', `/v1/sprites/${name}`)).status).toBe(204);
    await stopSpritzer(s.child, 'SIGTERM');
  }, 600_000);

  it('a drained node (kubectl drain --force --delete-emptydir-data: the bare pod deleted): its sprite is made again on the other node within seconds', async () => {
    const s = await startWith(spritzerArgs);
    expect((await s.call('POST', '/v1/sprites', { name: 'drain1' })).status).toBe(201);
    const from = (await nodeOf('drain1'))!;
    const t0 = Date.now();
    try {
      await run(KUBECTL, ['--kubeconfig', KUBECONFIG, 'drain', from, '--force', '--delete-emptydir-data', '--grace-period=1', '--ignore-daemonsets', '--timeout=60s']);
      const back = await waitFor(async () => {
        const r = await tryExec(s.url, 'drain1', ['uname', '-n']);
        return r.rec?.exitCode === 0 && (await nodeOf('drain1')) !== from ? r : undefined;
      }, 60_000, 1000);
      console.log(`drain: sprite drain1 answered again on ${await nodeOf('drain1')} after ${Math.round((Date.now() - t0) / 1000)} s`);
      expect(back?.rec?.stdout).toBe('drain1\n');
    } finally {
      await run(KUBECTL, ['--kubeconfig', KUBECONFIG, 'uncordon', from]);
    }
    expect((await s.call('DELETE', '/v1/sprites/drain1')).status).toBe(204);
    await stopSpritzer(s.child, 'SIGTERM');
  }, 180_000);
});
