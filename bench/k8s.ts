/**
 * `npm run bench:k8s`: what sprites cost on a real Kubernetes cluster (docs/container.md "Your own cluster"):
 * creates one at a time (pod scheduled, agent copied in by the init container, agent answering through
 * `pods/exec`), then a burst of creates with some in flight at once (sprites made per second), where the scheduler put
 * the pods, the `echo ok` round trip through `pods/exec`, and deletes. Runs on the cluster of
 * SPRITZER_K8S_KUBECONFIG (else `scripts/cluster.sh kubeconfig`, the local cluster of `npm run cluster:up`) in a
 * namespace of its own, which it empties at the end. Prints figures only; tests never run it and never assert
 * wall-clock time. Options: `--burst N` (default 12), `--parallel N` (default 4), `--namespace NS`.
 */
import { execFileSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { ContainerMachineFactory, type ContainerMachine } from '../src/server/machines/container/container-machine.ts';
import { startScript } from './lib/sprite-shell.ts';
import { median, timed } from './lib/timing.ts';

const { values } = parseArgs({
  options: {
    burst: { type: 'string', default: '12' },
    parallel: { type: 'string', default: '4' },
    namespace: { type: 'string', default: 'spritzer-bench' },
    'sprite-image': { type: 'string', default: 'docker.io/local/sprite:1' },
    'agent-image': { type: 'string', default: 'docker.io/local/spritzer-agent:1' },
  },
});
const burst = Number(values.burst);
const parallel = Number(values.parallel);
const ns = values.namespace!;
const kubeconfig = process.env.SPRITZER_K8S_KUBECONFIG || execFileSync('bash', ['scripts/cluster.sh', 'kubeconfig'], { encoding: 'utf8' }).trim();

const ms = (n: number) => `${Math.round(n)} ms`;


const config = new KubeConfig();
config.loadFromFile(kubeconfig);
const core = config.makeApiClient(CoreV1Api);
await core.createNamespace({ body: { metadata: { name: ns } } }).catch((err: { code?: number }) => {
  if (err.code !== 409) throw err;
});
const nodes = (await core.listNode()).items.map((n) => n.metadata?.name ?? '?');
console.log(`bench:k8s: ${new Date().toISOString()}, ${nodes.length} node(s) (${nodes.join(', ')}), ${cpus().length} cores, load average ${loadavg()[0]!.toFixed(2)}`);
const factory = await ContainerMachineFactory.open({
  kube: { config, endpoint: config.getCurrentCluster()?.server ?? '' },
  namespace: ns,
  image: values['sprite-image'],
  agentImage: values['agent-image'],
  leftovers: 'remove',
});
const made: ContainerMachine[] = [];
try {
  const one: number[] = [];
  for (let i = 0; i < 3; i++) {
    const [t, m] = await timed(() => factory.create({ name: `one${i}`, id: `sprite-one${i}` }));
    one.push(t);
    made.push(m);
  }
  console.log(`create, one at a time (pod Running, agent answering)   median ${ms(median(one))} of ${one.map(ms).join(', ')}`);
  const echoes: number[] = [];
  for (let i = 0; i < 20; i++) echoes.push((await timed(() => startScript(made[0]!, 'echo ok').exit))[0]);
  console.log(`echo ok round trip through pods/exec                  median ${ms(median(echoes))}`);

  const t0 = performance.now();
  let next = 0;
  const lanes = Array.from({ length: parallel }, async () => {
    while (next < burst) {
      const i = next++;
      made.push(await factory.create({ name: `burst${i}`, id: `sprite-burst${i}` }));
    }
  });
  await Promise.all(lanes);
  const took = performance.now() - t0;
  console.log(`burst of ${burst} creates, ${parallel} in flight              ${(took / 1000).toFixed(1)} s: ${((burst * 1000) / took).toFixed(2)} sprites/s`);
  const pods = (await core.listNamespacedPod({ namespace: ns })).items;
  const perNode = new Map<string, number>();
  for (const p of pods) perNode.set(p.spec?.nodeName ?? '?', (perNode.get(p.spec?.nodeName ?? '?') ?? 0) + 1);
  console.log(`pods per node                                       ${[...perNode].map(([n, c]) => `${n}: ${c}`).join(', ')}`);
  const memory = pods[0]?.spec?.containers[0]?.resources;
  console.log(`a sprite's pod requests / is limited to             ${memory?.requests?.memory} / ${memory?.limits?.memory} bytes of memory`);
  const [tDel] = await timed(() => Promise.all(made.splice(0).map((m) => m.destroy())));
  console.log(`delete all ${pods.length}                                        ${ms(tDel)}`);
} finally {
  for (const m of made) await m.destroy().catch(() => undefined);
  await factory.close();
  await core.deleteNamespace({ name: ns }).catch(() => undefined);
}
