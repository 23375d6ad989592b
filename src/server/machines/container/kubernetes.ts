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
import { AuthorizationV1Api, CoreV1Api, Exec, KubeConfig, type V1Pod } from '@kubernetes/client-node';
import { ModelError } from '../../core/errors.ts';
import { PATH_INSIDE, type BoxCreated, type BoxInfo, type BoxRuntime, type BoxSpec, type ExecPipe } from './boxes.ts';
import type { ContainerRuntimeName } from './runtime.ts';
import { SPRITE_GID, SPRITE_UID } from '../../../protocol/sprite-tree.ts';

export { DEFAULT_AGENT_IMAGE } from './defaults.ts';
/** The name of the sprite's container in its pod. */
export const SPRITE_CONTAINER = 'sprite';
/**
 * A sprite's pod requests of the scheduler this fraction of its memory limit (the sprite's memory): the scheduler
 * places pods by their requests, so a node holds up to this many times the sprites its memory could hold if each
 * used all of its own at once.
 */
export const SPRITE_MEMORY_OVERCOMMIT = 16;
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

/**
 * The words of a failed API call: the API's own `Status.message` (which names the verb, resource and user of a
 * 403: `pods is forbidden: User "x" cannot create resource "pods" …`), or the connection's error code when the
 * API did not answer (`ECONNREFUSED` while the API server restarts).
 */
export function kubeErrorText(err: unknown): string {
  // An exec's refused WebSocket handshake is a `ws` ErrorEvent: `{message: 'Unexpected server response: 500', error}`.
  const e = err as { code?: unknown; body?: unknown; message?: string; cause?: { code?: string; message?: string }; error?: { code?: string; message?: string } };
  if (typeof e.code === 'number') {
    let message = '';
    try {
      const body = typeof e.body === 'string' ? JSON.parse(e.body) : e.body;
      message = (body as { message?: string })?.message ?? '';
    } catch {
      message = String(e.body ?? '');
    }
    return `HTTP ${e.code}${message ? `: ${message}` : ''}`;
  }
  const cause = e.cause ?? e.error;
  const code = cause?.code ?? (typeof e.code === 'string' ? e.code : undefined);
  return code ? `${code} (${cause?.message ?? e.message ?? ''})`.replace(/ \(\)$/, '') : (e.message ?? String(err));
}

/**
 * A failed call of the Kubernetes API as the sprite's error: ModelError `sprite_unavailable` (503) saying what was
 * asked (`what`), of which API, and the API's answer. Marked `unavailable`, so a restart gives up at once instead
 * of trying again against an API that is not there (container-machine.ts).
 * @deviation real Sprites never answer for a Kubernetes cluster: the 503 and its words are spritzer's.
 */
export function kubeUnavailable(what: string, err: unknown, endpoint = ''): ModelError {
  if (err instanceof ModelError) return err;
  return Object.assign(new ModelError('sprite_unavailable', `${what}: the Kubernetes API${endpoint ? ` at ${endpoint}` : ''} answered ${kubeErrorText(err)}`), { unavailable: true });
}

/** A `verb` on `resource` (with its `subresource`) the runtime needs in its namespace. */
export interface KubePermission {
  verb: string;
  resource: string;
  subresource?: string;
}

/**
 * What the Kubernetes runtime does in its namespace (deploy/k8s/rbac.yaml grants exactly these): pods created,
 * read, listed (adoption) and deleted; `pods/exec` (the agent bridge: a WebSocket exec is authorized as `create`
 * since Kubernetes 1.30, `get` before); `pods/log` (a failed boot's last lines).
 */
export const KUBE_PERMISSIONS: readonly KubePermission[] = [
  { verb: 'create', resource: 'pods' },
  { verb: 'get', resource: 'pods' },
  { verb: 'list', resource: 'pods' },
  { verb: 'delete', resource: 'pods' },
  { verb: 'create', resource: 'pods', subresource: 'exec' },
  { verb: 'get', resource: 'pods', subresource: 'log' },
];

/**
 * Asks the API (SelfSubjectAccessReview) whether the configured user may do each of KUBE_PERMISSIONS in
 * `namespace`; resolves with the ones denied, as `verb resource[/subresource]`. When the review itself cannot be
 * made (an API without the authorization group, a fake), resolves with none: the first use then names what is
 * missing in the API's 403.
 */
export async function missingPermissions(config: KubeConfig, namespace: string): Promise<string[]> {
  const authz = config.makeApiClient(AuthorizationV1Api);
  const missing: string[] = [];
  for (const p of KUBE_PERMISSIONS) {
    let allowed = true;
    try {
      const review = await authz.createSelfSubjectAccessReview({
        body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: { namespace, ...p } } },
      });
      allowed = review.status?.allowed === true;
    } catch (err) {
      if (codeOf(err) === undefined) throw new Error(`cannot reach the Kubernetes API: ${kubeErrorText(err)}`);
      return [];
    }
    if (!allowed) missing.push(`${p.verb} ${p.resource}${p.subresource ? `/${p.subresource}` : ''}`);
  }
  return missing;
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
  /** The API server's URL, for errors. */
  private readonly endpoint: string;
  /** The pods this runtime made or adopted, by name: what `start` makes again when one is gone. */
  private readonly manifests = new Map<string, V1Pod>();

  constructor(
    config: KubeConfig,
    /** The Kubernetes namespace of the pods (`--namespace`). */
    readonly namespace: string,
    private readonly opts: { agentImage: string; entrypoint: string[]; timeoutMs: number },
  ) {
    this.core = config.makeApiClient(CoreV1Api);
    this.exec = new Exec(config);
    this.endpoint = config.getCurrentCluster()?.server ?? '';
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
            // The scheduler places pods by what they request, not by their limit: requesting the whole limit (a
            // quarter of the host by default) would fill a node with four idle sprites. A sprite asks for a
            // SPRITE_MEMORY_OVERCOMMIT-th of it and may use all of it, as idle sprites on one host share its memory.
            resources: {
              requests: { memory: String(Math.ceil(spec.limits.memoryBytes / SPRITE_MEMORY_OVERCOMMIT)) },
              limits: { memory: String(spec.limits.memoryBytes) },
            },
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
    const body = this.podFor(spec);
    try {
      await this.core.createNamespacedPod({ namespace: this.namespace, body });
    } catch (err) {
      // A pod of that name that spritzer did not make (it knows no sprite of that name): never touched.
      if (codeOf(err) === 409) {
        throw new ModelError('sprite_unavailable', `cannot create pod ${spec.name}: a pod of that name that spritzer did not make exists in namespace ${this.namespace}; delete it, or give spritzer a namespace of its own (--namespace)`);
      }
      throw kubeUnavailable(`cannot create pod ${spec.name} in namespace ${this.namespace}`, err, this.endpoint);
    }
    this.manifests.set(spec.name, body);
    try {
      await this.start(spec.name);
    } catch (err) {
      // The pod this call made never ran: it goes (the caller only removes what it knows was made).
      await this.remove(spec.name).catch(() => undefined);
      throw err;
    }
    return { diskLimited: false };
  }

  /**
   * Waits until the pod is Running with its sprite container ready to exec (the kubelet restarts it itself).
   * Rejects at once when a container cannot start for good (its image cannot be had: `waitingFatal`), when the
   * pod's node stopped answering (the node controller marks its pods not Ready: `NodeNotReady`), or when the API
   * does not answer; else after the create timeout, naming the phase, why the scheduler cannot place the pod
   * (`Unschedulable`: no node has the memory it asks for) and the last reason a container was waiting for.
   * A pod that is gone (its node deleted, the pod evicted) is made again from the manifest this runtime made or
   * adopted: a bare pod has no controller to reschedule it; its `emptyDir` volumes start empty.
   * @deviation a sprite whose node went away comes back on another node with `/home/sprite` empty (docs/container.md).
   */
  async start(name: string): Promise<void> {
    const deadline = Date.now() + this.opts.timeoutMs;
    let last = 'Pending';
    let waiting = '';
    let unschedulable = '';
    while (Date.now() < deadline) {
      const pod = await this.readPod(name);
      if (!pod) {
        const manifest = this.manifests.get(name);
        if (!manifest) throw Object.assign(new ModelError('sprite_unavailable', `pod ${name} is gone from namespace ${this.namespace}`), { unavailable: true });
        await this.core.createNamespacedPod({ namespace: this.namespace, body: manifest }).catch((err) => {
          if (codeOf(err) !== 409) throw kubeUnavailable(`cannot create pod ${name} again in namespace ${this.namespace}`, err, this.endpoint);
        });
        continue;
      }
      if (!this.manifests.has(name)) this.manifests.set(name, manifestOf(pod));
      last = pod.status?.phase ?? 'Pending';
      const sprite = pod.status?.containerStatuses?.find((c) => c.name === SPRITE_CONTAINER);
      const running = sprite?.state?.running;
      // The node controller marks the pods of a node that stopped posting its status not Ready, leaving their
      // containers' own `ready` as the kubelet last said (MarkPodsNotReady): the pod's state is then stale.
      const podReady = pod.status?.conditions?.find((c) => c.type === 'Ready');
      if ((last === 'Running' && running && sprite?.ready && podReady?.status === 'False') || pod.status?.reason === 'NodeLost') {
        throw Object.assign(
          new ModelError('sprite_unavailable', `pod ${name} is on node ${pod.spec?.nodeName ?? '?'}, which does not answer (the node controller marked its pods not Ready); the sprite comes back when the node does, or on another node once the pod is evicted or deleted`),
          { unavailable: true },
        );
      }
      // A pod being deleted (by a user, a drain, an eviction) is waited out, then made again from its manifest.
      if (pod.metadata?.deletionTimestamp) {
        await sleep(200);
        continue;
      }
      if (last === 'Running' && running) return;
      if (last === 'Failed' || last === 'Succeeded') {
        throw new ModelError('sprite_unavailable', `pod ${name} ended (phase ${last}${pod.status?.reason ? `, ${pod.status.reason}` : ''}${pod.status?.message ? `: ${pod.status.message}` : ''})`);
      }
      const scheduled = pod.status?.conditions?.find((c) => c.type === 'PodScheduled');
      if (scheduled?.status === 'False' && scheduled.reason) unschedulable = `${scheduled.reason}: ${scheduled.message ?? ''}`.trim();
      for (const c of [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])]) {
        const w = c.state?.waiting;
        if (!w?.reason || w.reason === 'PodInitializing' || w.reason === 'ContainerCreating') continue;
        waiting = `container ${c.name}: ${w.reason}${w.message ? `: ${w.message}` : ''}`;
        if (WAITING_FATAL.has(w.reason)) throw new ModelError('sprite_unavailable', `pod ${name} cannot start: ${waiting}`);
      }
      await sleep(200);
    }
    const why = [unschedulable, waiting].filter(Boolean).join('; ');
    const failed = new ModelError('sprite_unavailable', `pod ${name} is not running after ${Math.round(this.opts.timeoutMs / 1000)} s (--create-timeout; phase ${last}${why ? `; ${why}` : ''})`);
    // No node has room for it: a restart trying again at once would wait the whole timeout once more for each try.
    throw unschedulable ? Object.assign(failed, { unavailable: true }) : failed;
  }

  /** The pod, or undefined when the API says it is gone; an unanswered call rejects (`kubeUnavailable`). */
  private async readPod(name: string): Promise<V1Pod | undefined> {
    try {
      return await this.core.readNamespacedPod({ name, namespace: this.namespace });
    } catch (err) {
      if (codeOf(err) === 404) return undefined;
      throw kubeUnavailable(`cannot read pod ${name} in namespace ${this.namespace}`, err, this.endpoint);
    }
  }

  async openExec(name: string, argv: string[]): Promise<ExecPipe> {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    stderr.resume();
    const ws = await this.exec.exec(this.namespace, name, SPRITE_CONTAINER, argv, stdout, stderr, stdin, false).catch((err) => {
      const failed = kubeUnavailable(`cannot exec in pod ${name} (pods/exec)`, err, this.endpoint);
      // Only an API that does not answer, a node it cannot dial (5xx) or a refusal (403) is unavailable; a container
      // between restarts is tried again by the caller.
      const text = kubeErrorText(err);
      (failed as { unavailable?: boolean }).unavailable = /Unexpected server response: (5\d\d|403)|^E[A-Z]+ /.test(text);
      throw failed;
    });
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
    this.manifests.delete(name);
    await this.core.deleteNamespacedPod({ name, namespace: this.namespace, gracePeriodSeconds: 0 }).catch((err) => {
      if (codeOf(err) !== 404) throw kubeUnavailable(`cannot delete pod ${name} in namespace ${this.namespace}`, err, this.endpoint);
    });
  }

  async list(labels: Record<string, string>): Promise<BoxInfo[]> {
    const labelSelector = Object.entries(labels).map(([k, v]) => `${k}=${v}`).join(',');
    const list = await this.core.listNamespacedPod({ namespace: this.namespace, labelSelector }).catch((err) => {
      throw kubeUnavailable(`cannot list the pods of namespace ${this.namespace}`, err, this.endpoint);
    });
    return list.items.map((p) => ({
      name: p.metadata?.name ?? '',
      labels: p.metadata?.labels ?? {},
      createdMs: p.metadata?.creationTimestamp ? new Date(p.metadata.creationTimestamp).getTime() : Date.now(),
    }));
  }

  async imageOf(name: string): Promise<string> {
    const pod = await this.readPod(name);
    return pod?.spec?.containers.find((c) => c.name === SPRITE_CONTAINER)?.image ?? '';
  }
}

/** What makes `pod` again: its name, namespace, labels and spec, without the node it was bound to. */
function manifestOf(pod: V1Pod): V1Pod {
  const { nodeName: _bound, ...spec } = pod.spec!;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: pod.metadata?.name, namespace: pod.metadata?.namespace, labels: pod.metadata?.labels },
    spec,
  };
}
