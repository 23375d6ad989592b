/**
 * The Kubernetes runtime of the container engine (`--container-runtime kubernetes`, or `auto` inside a cluster):
 * a pod `sprite-<name>` per sprite in `--namespace`, the agent copied into an `emptyDir` at `/.sprite` by an init
 * container from the spritzer image (`--agent-image`), exec (the agent bridge) through `pods/exec` over WebSocket
 * (`@kubernetes/client-node`'s `Exec`, channel protocol `v5.channel.k8s.io`/`v4.channel.k8s.io`). It owns the pod
 * shape and the API calls; the sprite logic is the shared container Machine's (container-machine.ts).
 * @see docs/container.md "Kubernetes", https://kubernetes.io/docs/reference/kubernetes-api/workload-resources/pod-v1/,
 *   deploy/k8s/, docs/container.md "Kubernetes"
 */
import { PassThrough } from 'node:stream';
import { CoreV1Api, Exec, KubeConfig, type V1Pod } from '@kubernetes/client-node';
import { PATH_INSIDE, type BoxCreated, type BoxInfo, type BoxRuntime, type BoxSpec, type ExecPipe } from './boxes.ts';
import type { ContainerRuntimeName } from './runtime.ts';
import { SPRITE_GID, SPRITE_UID } from '../../../protocol/sprite-tree.ts';

export { DEFAULT_AGENT_IMAGE } from './defaults.ts';
/** The name of the sprite's container in its pod. */
export const SPRITE_CONTAINER = 'sprite';
/** Where the spritzer image keeps the agent's files (Dockerfile: /app/dist, /app/node_modules). */
const AGENT_IN_IMAGE = '/app/dist/agent/agent.mjs';
const NODE_PTY_IN_IMAGE = '/app/node_modules/node-pty';

/** A reachable Kubernetes API: its config, and where, for logs. */
export interface KubeApi {
  config: KubeConfig;
  endpoint: string;
}

/**
 * The Kubernetes API when `runtime` asks for it: `kubernetes` loads the default config (KUBECONFIG,
 * ~/.kube/config, else in-cluster); `auto` only inside a cluster (`KUBERNETES_SERVICE_HOST`) with no Docker or
 * Podman socket in sight (`DOCKER_HOST`, `CONTAINER_HOST` unset): Docker and Podman come first. Resolves
 * undefined otherwise. Rejects when the config names no cluster.
 */
export async function openKubeIfChosen(runtime: ContainerRuntimeName, env: NodeJS.ProcessEnv = process.env): Promise<KubeApi | undefined> {
  const inCluster = !!env.KUBERNETES_SERVICE_HOST && !env.DOCKER_HOST && !env.CONTAINER_HOST;
  if (runtime !== 'kubernetes' && !(runtime === 'auto' && inCluster)) return undefined;
  const config = new KubeConfig();
  if (runtime === 'auto') config.loadFromCluster();
  else config.loadFromDefault();
  const cluster = config.getCurrentCluster();
  if (!cluster) throw new Error('no Kubernetes cluster configured: set KUBECONFIG, or run spritzer in a cluster (deploy/k8s/)');
  return { config, endpoint: cluster.server };
}

/** The API's status code of a failed call (404 missing, 409 exists). */
function codeOf(err: unknown): number | undefined {
  return (err as { code?: number }).code;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Reasons a container waits with that do not pass by waiting (the kubelet keeps retrying, but the image is not
 * there, not allowed to be pulled, or not a valid name): a create fails at once with the kubelet's message.
 * A first `ErrImagePull` is not one of them: it may be a registry's passing failure, retried by the kubelet.
 * @see https://kubernetes.io/docs/concepts/containers/images/#imagepullbackoff
 */
const WAITING_FATAL = new Set(['ImagePullBackOff', 'ErrImageNeverPull', 'InvalidImageName']);

/**
 * Pods as sprite boxes. A pod restarts its container itself (`restartPolicy: Always`); `/.sprite` (the agent)
 * and `/home/sprite` are `emptyDir` volumes that live as long as the pod; its containers share one PID namespace,
 * whose PID 1 (the pause container) reaps orphans.
 * @deviation on Kubernetes a restarted container keeps `/home/sprite` but not the rest of its disk; checkpoints
 *   are not available (docs/fidelity.md "Container engine: Kubernetes").
 */
export class KubeBoxes implements BoxRuntime {
  readonly name = 'kubernetes' as const;
  private readonly core: CoreV1Api;
  private readonly exec: Exec;

  constructor(
    config: KubeConfig,
    /** The Kubernetes namespace of the pods (`--namespace`). */
    readonly namespace: string,
    private readonly opts: { agentImage: string; entrypoint: string[]; timeoutMs: number },
  ) {
    this.core = config.makeApiClient(CoreV1Api);
    this.exec = new Exec(config);
  }

  /** The pod spec of a sprite (exported shape checked by the fake API server's tests). */
  podFor(spec: BoxSpec): V1Pod {
    return {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: spec.name, namespace: this.namespace, labels: spec.labels },
      spec: {
        hostname: spec.hostname,
        restartPolicy: 'Always',
        automountServiceAccountToken: false,
        enableServiceLinks: false,
        terminationGracePeriodSeconds: 1,
        // The pod's pause container is PID 1 of the sprite, as Docker's init is (`Init: true`): it reaps orphans, and
        // the agent is not PID 1 (which Node cannot be: it reaps no one).
        shareProcessNamespace: true,
        volumes: [
          { name: 'sprite-agent', emptyDir: {} },
          { name: 'sprite-home', emptyDir: {} },
        ],
        initContainers: [
          {
            name: 'agent',
            image: this.opts.agentImage,
            // Explicit: for a `:latest` tag (the default spritzer:latest) Kubernetes' default is Always, which pulls
            // even an image loaded into the node (kind load, k3d image import, ctr import) and fails without a registry.
            imagePullPolicy: 'IfNotPresent',
            command: [
              'sh',
              '-c',
              `mkdir -p /target/agent/node_modules /target/run /target/bin && chmod 700 /target/run && cp ${AGENT_IN_IMAGE} /target/agent/ && ` +
                `cp -r ${NODE_PTY_IN_IMAGE} /target/agent/node_modules/ && chown ${SPRITE_UID}:${SPRITE_GID} /home-sprite`,
            ],
            securityContext: { runAsUser: 0 },
            volumeMounts: [
              { name: 'sprite-agent', mountPath: '/target' },
              { name: 'sprite-home', mountPath: '/home-sprite' },
            ],
          },
        ],
        containers: [
          {
            name: SPRITE_CONTAINER,
            image: spec.image,
            imagePullPolicy: 'IfNotPresent',
            command: this.opts.entrypoint,
            workingDir: '/',
            env: [
              { name: 'PATH', value: PATH_INSIDE },
              { name: 'HOME', value: '/root' },
            ],
            securityContext: { runAsUser: 0, capabilities: { add: ['SYS_PTRACE'] } },
            // @deviation a pod's process count is the kubelet's setting (podPidsLimit), not the pod's: only memory here.
            resources: { limits: { memory: String(spec.limits.memoryBytes) } },
            volumeMounts: [
              { name: 'sprite-agent', mountPath: '/.sprite' },
              { name: 'sprite-home', mountPath: '/home/sprite' },
            ],
          },
        ],
      },
    };
  }

  /**
   * @deviation the pod's disk is not bounded: Kubernetes' `ephemeral-storage` limit evicts the whole pod (the sprite
   * lost) instead of refusing the write, so it is not set (docs/fidelity.md "Container engine: disk quota").
   */
  async create(spec: BoxSpec): Promise<BoxCreated> {
    await this.core.createNamespacedPod({ namespace: this.namespace, body: this.podFor(spec) });
    await this.start(spec.name);
    return { diskLimited: false };
  }

  /**
   * Waits until the pod is Running with its sprite container ready to exec (the kubelet restarts it itself).
   * Rejects at once when a container cannot start for good (its image cannot be had: `waitingFatal`), else after
   * the create timeout, naming the phase and the last reason a container was waiting for.
   */
  async start(name: string): Promise<void> {
    const deadline = Date.now() + this.opts.timeoutMs;
    let last = 'Pending';
    let waiting = '';
    while (Date.now() < deadline) {
      const pod = await this.core.readNamespacedPod({ name, namespace: this.namespace });
      last = pod.status?.phase ?? 'Pending';
      const running = pod.status?.containerStatuses?.find((c) => c.name === SPRITE_CONTAINER)?.state?.running;
      if (last === 'Running' && running) return;
      if (last === 'Failed' || last === 'Succeeded') break;
      for (const c of [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])]) {
        const w = c.state?.waiting;
        if (!w?.reason || w.reason === 'PodInitializing' || w.reason === 'ContainerCreating') continue;
        waiting = `container ${c.name}: ${w.reason}${w.message ? `: ${w.message}` : ''}`;
        if (WAITING_FATAL.has(w.reason)) throw new Error(`pod ${name} cannot start: ${waiting}`);
      }
      await sleep(100);
    }
    throw new Error(`pod ${name} is not running (phase ${last}${waiting ? `; ${waiting}` : ''})`);
  }

  async openExec(name: string, argv: string[]): Promise<ExecPipe> {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    stderr.resume();
    const ws = await this.exec.exec(this.namespace, name, SPRITE_CONTAINER, argv, stdout, stderr, stdin, false);
    const closed = new Promise<void>((resolve) => {
      ws.on('close', () => {
        stdout.end();
        resolve();
      });
      ws.on('error', () => undefined);
    });
    return { stdin, stdout, closed, kill: () => ws.close() };
  }

  async logs(name: string): Promise<string> {
    const text = await this.core.readNamespacedPodLog({ name, namespace: this.namespace, container: SPRITE_CONTAINER, tailLines: 20 }).catch(() => '');
    return String(text).trim();
  }

  async remove(name: string): Promise<void> {
    await this.core.deleteNamespacedPod({ name, namespace: this.namespace, gracePeriodSeconds: 0 }).catch((err) => {
      if (codeOf(err) !== 404) throw err;
    });
  }

  async list(labels: Record<string, string>): Promise<BoxInfo[]> {
    const labelSelector = Object.entries(labels).map(([k, v]) => `${k}=${v}`).join(',');
    const list = await this.core.listNamespacedPod({ namespace: this.namespace, labelSelector });
    return list.items.map((p) => ({
      name: p.metadata?.name ?? '',
      labels: p.metadata?.labels ?? {},
      createdMs: p.metadata?.creationTimestamp ? new Date(p.metadata.creationTimestamp).getTime() : Date.now(),
    }));
  }

  async imageOf(name: string): Promise<string> {
    const pod = await this.core.readNamespacedPod({ name, namespace: this.namespace });
    return pod.spec?.containers.find((c) => c.name === SPRITE_CONTAINER)?.image ?? '';
  }
}
