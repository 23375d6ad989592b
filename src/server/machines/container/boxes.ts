/**
 * The small runtime interface the container Machine talks to (`BoxRuntime`): create/start/remove/list a sprite's
 * box (a container on Docker or Podman, a pod on Kubernetes), run a command in it with piped stdio (the agent
 * bridge), read its logs. The Docker/Podman implementation is here (dockerode); Kubernetes is in kubernetes.ts.
 * It owns no sprite logic (container-machine.ts does) and no checkpoints (Docker-only, in the Machine).
 * @see docs/container.md
 */
import { PassThrough, type Duplex, type Readable, type Writable } from 'node:stream';
import type Docker from 'dockerode';

/** A command running in a box with stdin and stdout piped (stderr is drained). */
export interface ExecPipe {
  stdin: Writable;
  stdout: Readable;
  /** Resolves when the command's stream is gone. */
  closed: Promise<void>;
  /** Ends the command's stream at once. */
  kill(): void;
}

/** What creating a box needs. */
export interface BoxSpec {
  /** The box's name on the runtime (container or pod name). */
  name: string;
  /** The hostname inside (the sprite's name). */
  hostname: string;
  image: string;
  labels: Record<string, string>;
  /** The tar of the agent's files (agent-archive.ts), for runtimes that copy it in (Docker, Podman). */
  archive: Buffer;
  /** The box's memory in bytes (no swap beyond it) and its processes and threads (docs/limits.md). */
  limits: { memoryBytes: number; pids: number };
  /**
   * Bytes the box may write to its own disk (the container's writable layer), when bounded: the runtime's storage
   * option `size`, which the daemon's storage driver enforces (btrfs, zfs, overlay2 on xfs with `pquota`): writes past
   * it fail inside with EDQUOT or ENOSPC.
   */
  diskBytes?: number;
}

/** What `create` could apply. */
export interface BoxCreated {
  /** Whether `diskBytes` is enforced (false: asked for, but the daemon's storage driver has no size option). */
  diskLimited: boolean;
  /** Host pid of the box's first process, where the runtime says (Docker, Podman; for host-cgroups.ts). */
  pid?: number;
}

/** A box the runtime lists (adoption). */
export interface BoxInfo {
  name: string;
  labels: Record<string, string>;
  /** Creation time, epoch ms. */
  createdMs: number;
}

/** The operations the container Machine needs from a runtime. Rejections carry the runtime's message. */
export interface BoxRuntime {
  readonly name: 'docker' | 'podman' | 'kubernetes';
  /** Creates the box with the agent as its first process and starts it; resolves once it runs. */
  create(spec: BoxSpec): Promise<BoxCreated>;
  /** Starts a stopped box again (a box that runs already is fine); resolves once it runs. */
  start(name: string): Promise<void>;
  /** Runs `argv` in the box with stdin/stdout attached (no TTY). */
  openExec(name: string, argv: string[]): Promise<ExecPipe>;
  /** The box's last log lines ('' when there are none). */
  logs(name: string): Promise<string>;
  /** Removes the box with its volumes; a box that is not there is fine. */
  remove(name: string): Promise<void>;
  /** The boxes carrying every label of `labels`. */
  list(labels: Record<string, string>): Promise<BoxInfo[]>;
  /** The image the box runs. */
  imageOf(name: string): Promise<string>;
}

/**
 * Whether `err` is the daemon refusing the storage option `size` because its storage driver has none (`--storage-opt
 * is supported only for overlay over xfs with 'pquota' mount option`, `Storage Option not supported`, …).
 */
function refusesSizeOption(err: unknown): boolean {
  const message = String((err as { json?: { message?: string } }).json?.message ?? (err as Error)?.message ?? '');
  return /storage.?opt|storage option|quota/i.test(message);
}

/** The largest frame of Docker's multiplexed stream taken (dockerd frames each read of the process, 32 KiB). */
const MAX_DOCKER_FRAME_BYTES = 1024 * 1024;

/**
 * The stdout of a Docker exec's multiplexed stream (`[u8 stream, 0, 0, 0, u32 BE length][payload]` frames; stderr
 * and stdin frames dropped), following backpressure: while the reader of the returned stream is behind, `stream` is
 * paused, so bytes a sprite's code writes into the exec (the agent bridge's pipe) wait in the kernel, not here.
 * docker-modem's `demuxStream` writes on regardless of backpressure. A frame over 1 MiB destroys `stream`.
 * @see https://docs.docker.com/reference/api/engine/version/v1.41/#operation/ContainerAttach "Stream format"
 */
export function demuxExecStdout(stream: Duplex): Readable {
  const stdout = new PassThrough();
  // The chunks read and not yet taken: a frame is joined once, when it is whole, so a large frame that arrives in
  // many reads costs its own size, not a copy per read (which made a flood's garbage grow with the square of it).
  const chunks: Buffer[] = [];
  let buffered = 0;
  let waiting = false;
  /** Removes and returns the first `n` buffered bytes (n ≤ buffered), copying only when they span chunks. */
  const take = (n: number): Buffer => {
    if (n === 0) return Buffer.alloc(0);
    buffered -= n;
    const first = chunks[0]!;
    if (first.length >= n) {
      if (first.length === n) chunks.shift();
      else chunks[0] = first.subarray(n);
      return first.subarray(0, n);
    }
    const out = Buffer.allocUnsafe(n);
    for (let off = 0; off < n; ) {
      const c = chunks[0]!;
      const k = Math.min(c.length, n - off);
      c.copy(out, off, 0, k);
      off += k;
      if (k === c.length) chunks.shift();
      else chunks[0] = c.subarray(k);
    }
    return out;
  };
  stream.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    buffered += chunk.length;
    while (buffered >= 8) {
      const head = chunks[0]!.length >= 8 ? chunks[0]! : Buffer.concat(chunks, 8);
      const length = head.readUInt32BE(4);
      if (length > MAX_DOCKER_FRAME_BYTES) return void stream.destroy(new Error(`docker stream frame of ${length} bytes`));
      if (buffered < 8 + length) break;
      const kind = head[0];
      take(8);
      const payload = take(length);
      if (kind === 1 && !stdout.write(payload) && !waiting) {
        waiting = true;
        stream.pause();
        stdout.once('drain', () => {
          waiting = false;
          stream.resume();
        });
      }
    }
  });
  stream.on('end', () => stdout.end());
  stream.on('close', () => stdout.end());
  return stdout;
}

/** Docker's status of a failed call (404 missing, 304 already started, 409 conflict). */
function statusOf(err: unknown): number | undefined {
  return (err as { statusCode?: number }).statusCode;
}

/** How long a start waits for a stopping container to be stopped (ms). */
const STOPPING_GRACE_MS = 2_000;

/** The sprite processes' PATH. */
export const PATH_INSIDE = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/**
 * Docker and Podman through the Docker Engine API: the box is a container under the runtime's init, loopback
 * only, the agent copied in with `putArchive` before it starts. @see docs/container.md "How a sprite is made"
 */
export class DockerBoxes implements BoxRuntime {
  constructor(
    readonly docker: Docker,
    readonly name: 'docker' | 'podman',
    private readonly entrypoint: string[],
    /** `HostConfig.CgroupParent` of every box: the parent whose totals all sprites share (host-cgroups.ts). */
    private readonly cgroupParent?: string,
  ) {}

  /** Whether the daemon's storage driver takes the `size` option: unknown until a create asks for it. */
  private sizeOption: boolean | undefined;
  /** The daemon's storage driver (`docker info`), asked once. */
  private driver: Promise<string> | undefined;

  async create(spec: BoxSpec): Promise<BoxCreated> {
    const wantsSize = spec.diskBytes !== undefined && this.sizeOption !== false;
    let container: Docker.Container;
    try {
      container = await this.createContainer(spec, wantsSize ? await this.sizeFor(spec) : undefined);
      if (wantsSize) this.sizeOption = true;
    } catch (err) {
      if (!wantsSize || !refusesSizeOption(err)) throw err;
      // overlay2 on ext4, vfs, …: the daemon cannot bound a container's layer. Created without; the caller says so.
      this.sizeOption = false;
      container = await this.createContainer(spec, undefined);
    }
    // A container this call made but could not start is removed here: the caller only removes what it knows it made.
    try {
      await container.putArchive(spec.archive, { path: '/' });
      await container.start();
    } catch (err) {
      await container.remove({ force: true, v: true }).catch(() => undefined);
      throw err;
    }
    const pid = this.cgroupParent ? ((await container.inspect().catch(() => undefined)) as { State?: { Pid?: number } } | undefined)?.State?.Pid : undefined;
    return { diskLimited: spec.diskBytes !== undefined && this.sizeOption === true, pid };
  }

  /**
   * The `size` option that gives the box `spec.diskBytes` of its own writes. btrfs bounds what the container's
   * subvolume references, the image's files included, so its size is the image's plus the quota; overlay2 (xfs
   * `pquota`) and zfs bound the writable layer alone.
   */
  private async sizeFor(spec: BoxSpec): Promise<number> {
    this.driver ??= this.docker.info().then((i: { Driver?: string }) => i.Driver ?? '', () => '');
    if ((await this.driver) !== 'btrfs') return spec.diskBytes!;
    const image = (await this.docker.getImage(spec.image).inspect()) as { Size?: number };
    return spec.diskBytes! + (image.Size ?? 0);
  }

  private createContainer(spec: BoxSpec, size: number | undefined): Promise<Docker.Container> {
    return this.docker.createContainer({
      name: spec.name,
      Hostname: spec.hostname,
      Image: spec.image,
      Labels: spec.labels,
      Entrypoint: this.entrypoint,
      Cmd: [],
      User: '0:0',
      WorkingDir: '/',
      Env: [`PATH=${PATH_INSIDE}`, 'HOME=/root'],
      HostConfig: {
        Init: true,
        NetworkMode: 'none',
        // A sprite's loopback has ::1 as well as 127.0.0.1 (Fly's network is IPv6 first, and sprites-go dials the
        // address it is given, IPv6 or not); Docker turns IPv6 off in a container unless asked.
        Sysctls: { 'net.ipv6.conf.all.disable_ipv6': '0', 'net.ipv6.conf.lo.disable_ipv6': '0' },
        CapAdd: ['SYS_PTRACE'],
        // Every box is bounded: past its memory the kernel OOM-kills inside it, past its pids fork fails with EAGAIN.
        Memory: spec.limits.memoryBytes,
        MemorySwap: spec.limits.memoryBytes,
        PidsLimit: spec.limits.pids,
        // `/dev/shm` is half the memory, as on the sandbox engine (tmpfs pages cannot be reclaimed; a full one must not
        // OOM-kill the agent); the runtime's default is 64 MiB.
        ...(spec.limits.memoryBytes !== undefined ? { ShmSize: Math.floor(spec.limits.memoryBytes / 2) } : {}),
        ...(this.cgroupParent ? { CgroupParent: this.cgroupParent } : {}),
        // Podman's defaults exceed the hard limits of hosts without CAP_SYS_RESOURCE (docs/container.md).
        ...(this.name === 'podman' ? { Ulimits: [{ Name: 'nofile', Soft: 1024, Hard: 1024 }, { Name: 'nproc', Soft: 4096, Hard: 4096 }] } : {}),
        ...(size !== undefined ? { StorageOpt: { size: String(size) } } : {}),
      },
    });
  }

  /**
   * Starts the container. A container whose agent was just lost may still be stopping (a start now would find it
   * running, 304, and die with it): up to STOPPING_GRACE_MS is given for it to reach not-running first.
   */
  async start(name: string): Promise<void> {
    const container = this.docker.getContainer(name);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      container.wait({ condition: 'not-running' }).catch(() => undefined),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, STOPPING_GRACE_MS))),
    ]);
    clearTimeout(timer);
    await container.start().catch((err) => {
      if (statusOf(err) !== 304) throw err;
    });
  }

  async openExec(name: string, argv: string[]): Promise<ExecPipe> {
    const exec = await this.docker.getContainer(name).exec({ Cmd: argv, AttachStdin: true, AttachStdout: true, AttachStderr: true, Tty: false });
    const stream = (await exec.start({ hijack: true, stdin: true })) as unknown as import('node:stream').Duplex;
    const stdout = demuxExecStdout(stream);
    stream.on('error', () => stream.destroy());
    const closed = new Promise<void>((resolve) => stream.on('close', () => resolve()));
    return { stdin: stream, stdout, closed, kill: () => stream.destroy() };
  }

  async logs(name: string): Promise<string> {
    const logs = await this.docker.getContainer(name).logs({ stdout: true, stderr: true, tail: 20 }).catch(() => Buffer.alloc(0));
    return String(logs).trim();
  }

  async remove(name: string): Promise<void> {
    await this.docker.getContainer(name).remove({ force: true, v: true }).catch((err) => {
      if (statusOf(err) !== 404) throw err;
    });
  }

  async list(labels: Record<string, string>): Promise<BoxInfo[]> {
    const list = await this.docker.listContainers({ all: true, filters: { label: Object.entries(labels).map(([k, v]) => `${k}=${v}`) } });
    return list.map((c) => ({ name: (c.Names?.[0] ?? '').replace(/^\//, ''), labels: c.Labels ?? {}, createdMs: c.Created * 1000 }));
  }

  async imageOf(name: string): Promise<string> {
    return (await this.docker.getContainer(name).inspect()).Config.Image;
  }
}
