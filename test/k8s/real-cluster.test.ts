/**
 * The container engine's Kubernetes runtime on a real cluster (`npm run cluster:up`, scripts/cluster.sh: kubelet,
 * containerd and runc on this machine), with spritzer outside the cluster as a user starts it: `spritzer --exec
 * container --container-runtime kubernetes` with KUBECONFIG. The acceptance story: create (pod `sprite-<name>`
 * Running), `uname -a`, a multi-line script (stderr, exit 3, env, dir), piped stdin, a disconnected exec killed,
 * `sprite-env services create` run inside whose `python3 -m http.server` answers through `/s/<name>` and the
 * host-routed URL 3 s after its exec ended, delete, and the pod gone from the API.
 * Runs when SPRITZER_K8S_KUBECONFIG names the cluster's kubeconfig (`npm run test:k8s` sets it); skips, saying why,
 * otherwise. Images: SPRITZER_K8S_SPRITE_IMAGE and SPRITZER_K8S_AGENT_IMAGE (default: the ones cluster:up imports).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import { createHash } from 'node:crypto';
import { WebSocket } from 'ws';
import { api, execQuery, wsExec, TOKEN } from '../support/server.ts';
import { killChildren, startSpritzer, stopSpritzer } from '../support/spritzer-process.ts';
import type { ChildProcess } from 'node:child_process';
import { KUBECONFIG, openCluster } from './cluster.ts';

const SPRITE_IMAGE = process.env.SPRITZER_K8S_SPRITE_IMAGE ?? 'docker.io/local/sprite:1';
const AGENT_IMAGE = process.env.SPRITZER_K8S_AGENT_IMAGE ?? 'docker.io/local/spritzer-agent:1';
const NS = 'spritzer-k8s-test';
const NAME = 'kube1';
const POD = `sprite-${NAME}`;
/** Two sprites for a cluster of two or more nodes (`SK8S_NODES=2 npm run cluster:up`). */
const PAIR = ['kube2a', 'kube2b'];


const cluster = await openCluster();
if (cluster.reason) console.warn(`real Kubernetes cluster suite skipped: ${cluster.reason}`);
const core = cluster.core!;
const readyNodes = cluster.reason
  ? []
  : (await core.listNode()).items.filter((n) => n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'));
const pairReason = cluster.reason || (readyNodes.length < 2 ? `${readyNodes.length} Ready node(s): run \`SK8S_NODES=2 npm run cluster:up\`` : '');
if (!cluster.reason && pairReason) console.warn(`real Kubernetes cluster, two-node test skipped: ${pairReason}`);

/** spritzer's own namespace and Deployment in the cluster (deploy/k8s/; `npm run cluster:deploy`). */
const IN_CLUSTER_NS = 'spritzer';

/** The URL of the Running spritzer pod of the Deployment (its pod IP: the host routes to the nodes' pods), or ''. */
async function inClusterUrl(exceptPod = ''): Promise<{ url: string; pod: string }> {
  const pods = await core.listNamespacedPod({ namespace: IN_CLUSTER_NS, labelSelector: 'app=spritzer' }).catch(() => ({ items: [] }));
  const ready = pods.items.find(
    (p) => p.metadata?.name !== exceptPod && !p.metadata?.deletionTimestamp && p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
  );
  return ready?.status?.podIP ? { url: `http://${ready.status.podIP}:4290`, pod: ready.metadata!.name! } : { url: '', pod: '' };
}
const inClusterReason = cluster.reason || ((await inClusterUrl()).url ? '' : 'no Ready spritzer pod in namespace spritzer: run `npm run cluster:deploy`');
if (!cluster.reason && inClusterReason) console.warn(`real Kubernetes cluster, in-cluster spritzer test skipped: ${inClusterReason}`);
/** spritzer as a user starts it against the cluster (KUBECONFIG is set before it starts). */
const spritzerArgs = [
  '--exec', 'container', '--container-runtime', 'kubernetes', '--namespace', NS,
  '--sprite-image', SPRITE_IMAGE, '--agent-image', AGENT_IMAGE, '--token', TOKEN, '--create-timeout', '150s',
];
let child: ChildProcess | undefined;
let url = '';
let call: ReturnType<typeof api>;

/** Whether the API still has pod `name` in the test namespace. */
async function podExists(name: string): Promise<boolean> {
  try {
    await core.readNamespacedPod({ name, namespace: NS });
    return true;
  } catch (err) {
    if ((err as { code?: number }).code === 404) return false;
    throw err;
  }
}

beforeAll(async () => {
  if (cluster.reason) return;
  await core.createNamespace({ body: { metadata: { name: NS } } }).catch((err) => {
    if ((err as { code?: number }).code !== 409) throw err;
  });
  // A pod an earlier failed run left would be adopted: start from none.
  await core.deleteCollectionNamespacedPod({ namespace: NS, gracePeriodSeconds: 0 });
  for (let i = 0; i < 120 && (await core.listNamespacedPod({ namespace: NS })).items.length; i++) await new Promise((r) => setTimeout(r, 500));
  process.env.KUBECONFIG = KUBECONFIG;
  ({ child, url } = await startSpritzer(spritzerArgs));
  call = api(url);
}, 60_000);

afterAll(async () => {
  if (cluster.reason) return;
  if (url) for (const name of [NAME, ...PAIR]) await call('DELETE', `/v1/sprites/${name}`).catch(() => undefined);
  if (child) await stopSpritzer(child, 'SIGTERM').catch(() => undefined);
  killChildren();
  await core.deleteCollectionNamespacedPod({ namespace: NS, gracePeriodSeconds: 0 }).catch(() => undefined);
}, 60_000);

const sh = (script: string) => ['bash', '-c', script];
const exec = (argv: string[], opts: Parameters<typeof execQuery>[1] = {}, send?: (ws: WebSocket) => void) =>
  wsExec(url, `/v1/sprites/${NAME}/exec?${execQuery(argv, opts)}`, send);

/** A GET to spritzer with a chosen Host header (a browser's request for `http://<name>.localhost:<port>/`). */
function getWithHost(path: string, host: string): Promise<{ status: number; text: string }> {
  const port = Number(new URL(url).port);
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, headers: { Host: host, Authorization: `Bearer ${TOKEN}` } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      })
      .on('error', reject);
  });
}

describe.skipIf(!!cluster.reason)('container engine on a real Kubernetes cluster, spritzer outside it', () => {
  it('create makes pod sprite-<name>, Running on the node, with the agent copied in by its init container', async () => {
    const created = await call('POST', '/v1/sprites', { name: NAME });
    expect(created.status, created.text).toBe(201);
    const pod = await core.readNamespacedPod({ name: POD, namespace: NS });
    expect(pod.status?.phase).toBe('Running');
    expect(pod.spec?.nodeName).toBeTruthy();
    expect(pod.status?.initContainerStatuses?.[0]?.state?.terminated?.exitCode).toBe(0);
  }, 180_000);

  it('uname -a names Linux and the sprite (the pod hostname)', async () => {
    const rec = await exec(['uname', '-a']);
    expect(rec.stdout).toMatch(new RegExp(`^Linux ${NAME} `));
    expect(rec.exitCode).toBe(0);
  });

  it('a multi-line bash script gets its env and dir, and its exact stdout, stderr and exit code', async () => {
    const script = ['echo "answer $((6*7))"', 'echo "greeting $GREETING"', 'pwd', 'id -u', 'echo "to stderr" >&2', 'exit 3'].join('\n');
    const rec = await exec(sh(script), { env: ['GREETING=hello from env'], dir: '/tmp' });
    expect(rec.stdout).toBe('answer 42\ngreeting hello from env\n/tmp\n1001\n');
    expect(rec.stderr).toBe('to stderr\n');
    expect(rec.exitCode).toBe(3);
  });

  it('pipes stdin through sha256sum, byte for byte', async () => {
    const input = Buffer.from(Array.from({ length: 64 * 1024 }, (_, i) => (i * 7) % 256));
    const rec = await exec(['sha256sum'], { stdin: true }, (ws) => {
      ws.send(Buffer.concat([Buffer.from([0]), input]));
      ws.send(Buffer.from([4]));
    });
    expect(rec.stdout).toBe(`${createHash('sha256').update(input).digest('hex')}  -\n`);
  });

  it('a disconnected sleep 1000 is gone from ps a second later', async () => {
    const ws = new WebSocket(`${url.replace('http', 'ws')}/v1/sprites/${NAME}/exec?${execQuery(['sleep', '1000'])}`, {
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    await new Promise((r) => ws.once('message', r));
    expect((await exec(['ps', 'ax', '-o', 'args'])).stdout).toContain('sleep 1000');
    ws.terminate();
    await new Promise((r) => setTimeout(r, 1000));
    expect((await exec(['ps', 'ax', '-o', 'args'])).stdout).not.toContain('sleep 1000');
  });

  it('PID 1 is the pod\'s pause container, which reaps an orphan once it exits (no zombie left)', async () => {
    expect((await exec(['cat', '/proc/1/comm'])).stdout).toBe('pause\n');
    expect((await exec(sh('(sleep 0.3 &); echo started'))).stdout).toBe('started\n');
    await new Promise((r) => setTimeout(r, 1500));
    const ps = await exec(['ps', 'ax', '-o', 'stat=,args=']);
    expect(ps.stdout.split('\n').filter((l) => l.startsWith('Z'))).toEqual([]);
  });

  it('sprite-env services create inside: python3 -m http.server answers at /s/<name> and the host-routed URL 3 s after its exec ended', async () => {
    const created = await exec(
      sh("mkdir -p /home/sprite/www && echo 'hello from the pod' > /home/sprite/www/hello.txt && sprite-env services create web --cmd python3 --args -m,http.server,8080,--directory,/home/sprite/www --http-port 8080 --duration 1s"),
    );
    expect(created.stderr).toBe('');
    expect(created.exitCode).toBe(0);
    expect(created.stdout).toContain('"type":"started"');
    await new Promise((r) => setTimeout(r, 3000));
    const pathRouted = await fetch(`${url}/s/${NAME}/hello.txt`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect([pathRouted.status, await pathRouted.text()]).toEqual([200, 'hello from the pod\n']);
    const hostRouted = await getWithHost('/hello.txt', `${NAME}.localhost:${new URL(url).port}`);
    expect([hostRouted.status, hostRouted.text]).toEqual([200, 'hello from the pod\n']);
    expect((await call('GET', `/v1/sprites/${NAME}/services/web`)).json.state.status).toBe('running');
  }, 60_000);

  it('a restarted spritzer adopts the pod: the sprite and its file are still there, and exec works', async () => {
    expect((await exec(sh('echo kept > /home/sprite/note'))).exitCode).toBe(0);
    await stopSpritzer(child!, 'SIGTERM');
    ({ child, url } = await startSpritzer(spritzerArgs));
    call = api(url);
    expect((await call('GET', `/v1/sprites/${NAME}`)).status).toBe(200);
    expect((await exec(['cat', '/home/sprite/note'])).stdout).toBe('kept\n');
  }, 90_000);

  it('delete answers 204 and the pod is gone from the API', async () => {
    expect((await call('DELETE', `/v1/sprites/${NAME}`)).status).toBe(204);
    let exists = true;
    for (let i = 0; i < 120 && exists; i++) {
      exists = await podExists(POD);
      if (exists) await new Promise((r) => setTimeout(r, 500));
    }
    expect(exists).toBe(false);
    expect((await call('GET', `/v1/sprites/${NAME}`)).status).toBe(404);
  }, 90_000);
});

describe.skipIf(!!pairReason)('two nodes: the scheduler spreads sprites, and each runs its exec on its own node', () => {
  it('two sprites land on different nodes; each answers uname with its name and has its own pod IP', async () => {
    for (const name of PAIR) expect((await call('POST', '/v1/sprites', { name })).status).toBe(201);
    const pods = await Promise.all(PAIR.map((name) => core.readNamespacedPod({ name: `sprite-${name}`, namespace: NS })));
    const nodes = pods.map((p) => p.spec?.nodeName);
    expect(new Set(nodes).size, `pods on ${nodes.join(', ')}`).toBe(2);
    for (const name of PAIR) {
      const rec = await wsExec(url, `/v1/sprites/${name}/exec?${execQuery(['uname', '-n'])}`);
      expect([rec.stdout, rec.exitCode]).toEqual([`${name}\n`, 0]);
    }
    expect(pods[0]!.status?.podIP).not.toBe(pods[1]!.status?.podIP);
    for (const name of PAIR) expect((await call('DELETE', `/v1/sprites/${name}`)).status).toBe(204);
  }, 240_000);
});

describe.skipIf(!!inClusterReason)('spritzer inside the cluster (deploy/k8s/, its image from the Dockerfile)', () => {
  it('creates a sprite pod, runs uname; after its own pod is deleted the Deployment\'s new one adopts the sprite with its file; delete removes the pod', async () => {
    let { url: base, pod } = await inClusterUrl();
    const inCall = api(base);
    const name = 'incl1';
    await inCall('DELETE', `/v1/sprites/${name}`);
    expect((await inCall('POST', '/v1/sprites', { name })).status).toBe(201);
    const spritePod = await core.readNamespacedPod({ name: `sprite-${name}`, namespace: IN_CLUSTER_NS });
    expect(spritePod.status?.phase).toBe('Running');
    const run = (u: string, argv: string[]) => wsExec(u, `/v1/sprites/${name}/exec?${execQuery(argv)}`);
    expect((await run(base, ['uname', '-a'])).stdout).toMatch(new RegExp(`^Linux ${name} `));
    expect((await run(base, sh('echo kept > /home/sprite/note'))).exitCode).toBe(0);

    await core.deleteNamespacedPod({ name: pod, namespace: IN_CLUSTER_NS });
    let next = { url: '', pod: '' };
    for (let i = 0; i < 240 && !next.url; i++) {
      next = await inClusterUrl(pod);
      if (!next.url) await new Promise((r) => setTimeout(r, 500));
    }
    expect(next.url, 'a new spritzer pod became Ready').not.toBe('');
    ({ url: base, pod } = next);
    const listed = await api(base)('GET', '/v1/sprites');
    expect(listed.json.sprites.map((x: { name: string }) => x.name)).toContain(name);
    expect((await run(base, ['cat', '/home/sprite/note'])).stdout).toBe('kept\n');

    expect((await api(base)('DELETE', `/v1/sprites/${name}`)).status).toBe(204);
    let gone = false;
    for (let i = 0; i < 120 && !gone; i++) {
      gone = !(await core.listNamespacedPod({ namespace: IN_CLUSTER_NS, fieldSelector: `metadata.name=sprite-${name}` })).items.length;
      if (!gone) await new Promise((r) => setTimeout(r, 500));
    }
    expect(gone).toBe(true);
  }, 300_000);
});
