/**
 * The container engine's Kubernetes runtime against a fake API server (test/k8s/fake-apiserver.ts; no cluster can
 * run here): a pod `sprite-<name>` per sprite with the agent's init container, exec through `pods/exec` over the
 * channel protocol, adoption of the pods a restarted spritzer finds, delete removing the pod. The recorded
 * requests are the real client's, so their paths and bodies are asserted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeConfig } from '@kubernetes/client-node';
import { ContainerMachineFactory } from '../../src/server/machines/container/container-machine.ts';
import type { Machine } from '../../src/server/machines/port.ts';
import { agentFiles } from '../../src/server/machines/agent/bundle.ts';
import { startFakeApiServer, type FakeApiServer } from './fake-apiserver.ts';
import { errorAnswer } from '../../src/server/http/errors.ts';
import { defaultRecordDir, HostRecords } from '../../src/server/machines/container/records.ts';

const NS = 'spritzer-test';
let fake: FakeApiServer;
const factories: ContainerMachineFactory[] = [];

function kubeFor(url: string) {
  const config = new KubeConfig();
  config.loadFromOptions({
    clusters: [{ name: 'fake', server: url, skipTLSVerify: true }],
    users: [{ name: 'spritzer', token: 'fake-token' }],
    contexts: [{ name: 'fake', cluster: 'fake', user: 'spritzer', namespace: NS }],
    currentContext: 'fake',
  });
  return { config, endpoint: url };
}

async function open(): Promise<ContainerMachineFactory> {
  const f = await ContainerMachineFactory.open({ kube: kubeFor(fake.url), namespace: NS, image: 'sprite-image:test', agentImage: 'spritzer:test', createTimeoutMs: 20_000 });
  factories.push(f);
  return f;
}

/** Runs argv as the sprite user; resolves with its output and exit code. */
function run(machine: Machine, argv: string[]): Promise<{ out: string; err: string; code: number }> {
  let out = '';
  let err = '';
  const p = machine.spawn(
    { argv, env: { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: '/tmp' }, dir: '/', tty: false, rows: 24, cols: 80 },
    { stdout: (d) => (out += Buffer.from(d).toString()), stderr: (d) => (err += Buffer.from(d).toString()) },
    { stdin: false },
  );
  return p.exit.then((code) => ({ out, err, code }));
}

beforeAll(async () => {
  fake = await startFakeApiServer((await agentFiles()).bundle);
});
afterAll(async () => {
  for (const f of factories) await f.close().catch(() => undefined);
  await fake?.close();
});

describe('container engine on Kubernetes (fake API server)', () => {
  it('creates pod sprite-<name> with the agent init container, and execs through pods/exec', async () => {
    const factory = await open();
    expect(factory.runtime).toBe('kubernetes');
    // What the start line names: no checkpoints on this runtime.
    expect(factory.snapshotMode).toBe('none');
    const m = await factory.create({ name: 'box', id: 'sprite-k1', record: { createdAt: 1_700_000_000_000, labels: ['x'] } });

    const create = fake.requests.find((r) => r.method === 'POST' && r.url.endsWith('/pods'))!;
    expect(create.url).toBe(`/api/v1/namespaces/${NS}/pods`);
    const pod = create.body as any;
    expect(pod.metadata).toMatchObject({ name: 'sprite-box', labels: { 'dev.spritzer.managed': 'true', 'dev.spritzer.namespace': NS, 'dev.spritzer.sprite': 'box', 'dev.spritzer.id': 'sprite-k1' } });
    expect(pod.spec.hostname).toBe('box');
    // The pause container is the sprite's PID 1 (reaps orphans; the agent is not PID 1).
    expect(pod.spec.shareProcessNamespace).toBe(true);
    expect(pod.spec.initContainers[0]).toMatchObject({ name: 'agent', image: 'spritzer:test', imagePullPolicy: 'IfNotPresent' });
    expect(pod.spec.containers[0].imagePullPolicy).toBe('IfNotPresent');
    expect(pod.spec.containers[0]).toMatchObject({ name: 'sprite', image: 'sprite-image:test', command: ['node', '/.sprite/agent/agent.mjs', '--socket', '/.sprite/run/agent.sock', '--api-socket', '/.sprite/api.sock'] });
    expect(pod.spec.containers[0].volumeMounts).toEqual(expect.arrayContaining([{ name: 'sprite-agent', mountPath: '/.sprite' }]));
    // Placed by a small request, limited to the sprite's memory: idle sprites share a node's memory.
    const { requests, limits } = pod.spec.containers[0].resources;
    expect(Number(requests.memory)).toBe(Math.ceil(Number(limits.memory) / 16));

    const rec = await run(m, ['sh', '-c', 'echo out; echo err >&2; id -u; exit 3']);
    expect(rec).toEqual({ out: 'out\n1001\n', err: 'err\n', code: 3 });

    const exec = fake.requests.find((r) => r.url.includes('/exec?'))!;
    const q = new URL(exec.url, 'http://x');
    expect(q.pathname).toBe(`/api/v1/namespaces/${NS}/pods/sprite-box/exec`);
    expect(q.searchParams.get('container')).toBe('sprite');
    expect(q.searchParams.get('stdin')).toBe('true');
    expect(q.searchParams.getAll('command').slice(0, 2)).toEqual(['node', '-e']);
    expect(exec.protocol).toBe('v5.channel.k8s.io');
  });

  it('an agent image no node has fails the create at once with the kubelet\'s reason, not after the timeout', async () => {
    const f = await ContainerMachineFactory.open({ kube: kubeFor(fake.url), namespace: NS, image: 'sprite-image:test', agentImage: 'missing/spritzer:latest', createTimeoutMs: 20_000 });
    factories.push(f);
    const t0 = Date.now();
    const failed = f.create({ name: 'nopull', id: 'sprite-k9' });
    await expect(failed).rejects.toThrow(
      'pod sprite-nopull cannot start: container agent: ImagePullBackOff: Back-off pulling image "missing/spritzer:latest"',
    );
    // The API answers it 503 with these words (http/errors.ts), not a bare 500.
    await expect(failed).rejects.toMatchObject({ kind: 'sprite_unavailable' });
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(fake.pods()).not.toContain('sprite-nopull');
  });

  it('a pod of the sprite\'s name that spritzer did not make: the create is refused naming it, and the pod is left alone', async () => {
    const factory = await open();
    const theirs = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'sprite-theirs', labels: { owner: 'someone' } }, spec: { containers: [{ name: 'c', image: 'missing/theirs:1' }] } };
    const made = await fetch(`${fake.url}/api/v1/namespaces/${NS}/pods`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(theirs) });
    expect(made.status).toBe(201);
    const failed = factory.create({ name: 'theirs', id: 'sprite-k7' });
    await expect(failed).rejects.toThrow(`cannot create pod sprite-theirs: a pod of that name that spritzer did not make exists in namespace ${NS}`);
    await expect(failed).rejects.toMatchObject({ kind: 'sprite_unavailable' });
    expect(fake.pods()).toContain('sprite-theirs');
    expect(fake.requests.filter((r) => r.method === 'DELETE' && r.url.includes('/pods/sprite-theirs'))).toEqual([]);
    await fetch(`${fake.url}/api/v1/namespaces/${NS}/pods/sprite-theirs`, { method: 'DELETE' }); // as its owner would
  });

  it('checkpoints are refused with a clear error; usage is 0', async () => {
    const m = (await open().then((f) => f.create({ name: 'nock', id: 'sprite-k2' }))) as Machine;
    await expect(m.snapshot()).rejects.toMatchObject({
      kind: 'checkpoints_unavailable',
      message: expect.stringMatching(/^checkpoints are not available on the kubernetes runtime of the container engine .*--container-runtime docker or podman/),
    });
    // The API answers it 501 in the in-VM text family (http/errors.ts).
    expect(errorAnswer(await m.snapshot().catch((e: unknown) => e))).toMatchObject({ status: 501, body: expect.stringMatching(/^checkpoints are not available/) });
    expect(await m.usage()).toEqual({ bytes: 0, files: 0 });
    await m.destroy();
    expect(fake.pods()).not.toContain('sprite-nock');
  });

  it('a sprite container that dies is restarted by the kubelet; the agent is reattached and the reboot listeners run', async () => {
    const m = await factories[0].create({ name: 'crashy', id: 'sprite-k3' });
    let reboots = 0;
    const off = m.onReboot(() => reboots++);
    fake.crash('sprite-crashy');
    for (let i = 0; i < 300 && reboots === 0; i++) await new Promise((r) => setTimeout(r, 50));
    off();
    expect(reboots).toBe(1);
    expect((await run(m, ['echo', 'back'])).out).toBe('back\n');
    await m.destroy();
  });

  it('a pod that is gone (its node deleted) is made again from its manifest, and the sprite answers again', async () => {
    const m = await factories[0].create({ name: 'moved', id: 'sprite-k4' });
    const posts = () => fake.requests.filter((r) => r.method === 'POST' && r.url === `/api/v1/namespaces/${NS}/pods` && (r.body as any)?.metadata?.name === 'sprite-moved').length;
    expect(posts()).toBe(1);
    let reboots = 0;
    const off = m.onReboot(() => reboots++);
    fake.vanish('sprite-moved');
    for (let i = 0; i < 300 && reboots === 0; i++) await new Promise((r) => setTimeout(r, 50));
    off();
    expect(reboots).toBe(1);
    expect(fake.pods()).toContain('sprite-moved');
    expect(posts()).toBe(2);
    expect((await run(m, ['echo', 'moved'])).out).toBe('moved\n');
    await m.destroy();
    expect(fake.pods()).not.toContain('sprite-moved');
  });

  it('RBAC: a user the API denies a verb is refused at start, naming each verb and resource it lacks', async () => {
    fake.denied.add('create pods/exec');
    fake.denied.add('delete pods');
    try {
      await expect(ContainerMachineFactory.open({ kube: kubeFor(fake.url), namespace: NS, image: 'sprite-image:test', agentImage: 'spritzer:test' })).rejects.toThrow(
        `the Kubernetes user spritzer at ${fake.url} may not delete pods, create pods/exec in namespace ${NS} (RBAC)`,
      );
    } finally {
      fake.denied.clear();
    }
  });

  it('a restarted spritzer adopts the pods of its namespace with their record; destroy deletes the pod', async () => {
    const first = factories[0];
    first.detach();
    await first.close();
    expect(fake.pods()).toContain('sprite-box');
    // A record whose pod is gone (its node deleted while spritzer was away) is never read again: adoption drops it.
    const records = new HostRecords(defaultRecordDir(NS));
    await records.write('sprite-gone', { createdAt: 1 });

    const again = await open();
    const found = await again.adoptExisting();
    expect(found.map((f) => [f.spec.name, f.spec.id])).toEqual([['box', 'sprite-k1']]);
    expect(found[0].record).toMatchObject({ createdAt: 1_700_000_000_000, labels: ['x'] });
    expect(await records.read('sprite-gone')).toBeUndefined();
    expect((await run(found[0].machine, ['echo', 'again'])).out).toBe('again\n');
    expect(fake.requests.some((r) => r.method === 'GET' && r.url.startsWith(`/api/v1/namespaces/${NS}/pods?labelSelector=`))).toBe(true);

    await found[0].machine.destroy();
    expect(fake.requests.some((r) => r.method === 'DELETE' && r.url.startsWith(`/api/v1/namespaces/${NS}/pods/sprite-box`))).toBe(true);
    expect(fake.pods()).toEqual([]);
  });
});
