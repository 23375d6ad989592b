/**
 * Starts a sandbox sprite: one command (the in-sprite agent, or any command in tests) under bubblewrap in fresh
 * PID, mount, UTS, IPC, network and cgroup namespaces, on a root merged with overlayfs inside a private mount
 * namespace (`unshare --mount`, `mount -t overlay`, then `exec bwrap --bind merged /`), joined to its cgroups or
 * under rlimits, and kills it. With `userns` (every sprite of the sandbox engine) all of those namespaces belong to
 * the sprite's own user namespace, whose ids map to its host range, and the base is mounted idmapped through it
 * (native/userns.c does both, then becomes that namespace's root and runs bubblewrap). It owns the process tree of one sprite; it knows nothing of btrfs, snapshots or
 * the agent's protocol.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readlinkSync } from 'node:fs';
import { mkdir, open, readdir, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { BaseRoot, RootTree } from './rootfs.ts';
import { prlimitArgs, type SandboxLimits, type SpriteCgroup } from '../agent/cgroups.ts';
import { AGENT_PIDS_FILES, RUNAS_PATH } from '../../../protocol/sprite-tree.ts';

/** `PATH` inside a sprite, and for the host tools the launcher runs. */
export const SANDBOX_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/**
 * Capabilities the sprite's first process keeps (bwrap drops all others; `no_new_privs` is always set, so no
 * setuid binary can gain any), all of them only over the sprite's own user namespace: enough for the agent to drop
 * to uid 1001 (SETUID, SETGID), kill and reap what it started (KILL), read `/proc/<pid>/fd` of sprite processes
 * (SYS_PTRACE), do fs operations as root inside (CHOWN, DAC_OVERRIDE, FOWNER, FSETID: also what an exec session's
 * processes hold as ambient capabilities through the run-as helper, agent/native.ts `EXEC_CAPS`; ambient capabilities
 * survive execve under no_new_privs) and let services bind low ports (NET_BIND_SERVICE). Never CAP_SYS_ADMIN, CAP_MKNOD, CAP_SYS_MODULE, CAP_SYS_CHROOT or CAP_SYS_RESOURCE, and
 * not CAP_DAC_READ_SEARCH (the one `open_by_handle_at` needs) nor CAP_SETPCAP: the sprite cannot mount, chroot,
 * create devices, raise its limits or reach the host's disks.
 */
export const AGENT_CAPS: readonly string[] = [
  'CAP_CHOWN', 'CAP_DAC_OVERRIDE', 'CAP_FOWNER', 'CAP_FSETID', 'CAP_KILL', 'CAP_SETGID', 'CAP_SETUID', 'CAP_NET_BIND_SERVICE',
  'CAP_SYS_PTRACE',
];

/**
 * The sprite's own user namespace (id-ranges.ts, native.ts): inside ids 0..size-1 are host ids
 * hostBase..hostBase+size-1; the base's trees are seen through idmapped mounts, so host root's files look
 * root-owned inside while the sprite's root is host uid `hostBase`, which owns nothing of the host.
 */
export interface SpriteUserNamespace {
  /** The compiled `spritzer-userns` helper (native.ts `userNamespaceHelper`). */
  helper: string;
  /** Host uid and gid of the sprite's root. */
  hostBase: number;
  /** Ids in the range. */
  size: number;
  /** A host directory for the idmapped views of the base trees (one empty mount point per tree is made in it). */
  lowerDir: string;
  /** The namespace's `max_inotify_instances` per user inside (0 or absent: the host's per-user value). */
  inotifyInstances?: number;
  /** The namespace's `max_inotify_watches` per user inside (0 or absent: the host's per-user value). */
  inotifyWatches?: number;
}

/** A mount bubblewrap adds on top of the merged root (in order). */
export type SandboxMount =
  | { kind: 'bind' | 'ro-bind'; src: string; dest: string }
  | { kind: 'tmpfs' | 'remount-ro'; dest: string };

/** Everything needed to start one sandbox. Paths are host paths unless said otherwise. */
export interface LaunchSpec {
  /** Hostname inside (the sprite's name). */
  hostname: string;
  /** The base trees (rootfs.ts) merged with this sprite's layer. */
  base: BaseRoot;
  /** The sprite's writable layer (`<layer>/<tree>/upper` and `work` for each tree). */
  layerDir: string;
  /** An empty host directory used as the overlay mount point inside the private mount namespace. */
  mergedDir: string;
  /** Command and arguments, resolved inside the sprite (`PATH` = SANDBOX_PATH). */
  command: string[];
  /** Mounts on top of the root (the agent's binaries and socket directory). */
  mounts?: SandboxMount[];
  /** Environment of the command (besides `PATH` and `HOME=/root`). */
  env?: Record<string, string>;
  /** Working directory inside (default `/`). */
  cwd?: string;
  /** Capabilities kept (default AGENT_CAPS). */
  caps?: readonly string[];
  /**
   * The sprite's own user namespace. The sandbox engine always gives one; without it the sandbox runs in the host's
   * user namespace (only the launcher's own tests do that).
   */
  userns?: SpriteUserNamespace;
  /** A file holding a classic BPF program (seccomp.ts) that bubblewrap installs before the command runs. */
  seccompFile?: string;
  /** Size of the sprite's `/dev/shm` tmpfs in bytes (default: the kernel's, half the host's memory); its pages are charged to the sprite's memory cgroup either way. */
  shmBytes?: number;
  /** Cgroups joined before anything runs (cgroups.ts); when absent, `rlimits` apply instead. */
  cgroup?: SpriteCgroup;
  /** Limits applied with `prlimit` when there is no cgroup. */
  rlimits?: SandboxLimits;
  /** Called with every chunk the command writes to its stdout/stderr (it is drained either way). */
  onOutput?: (stream: 'stdout' | 'stderr', chunk: Buffer) => void;
  /** How long bubblewrap may take to report its namespaces (default 10 s). */
  timeoutMs?: number;
}

/** How a sandbox ended: the exit code of its command, or the signal that killed it. */
export interface SandboxExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A running sandbox. */
export interface Sandbox {
  /** Host pid of the outer bubblewrap process (a child of this process). */
  readonly pid: number;
  /** Host pid of the sandbox's PID 1 (its death ends every process inside). */
  readonly initPid: number;
  /** Namespace ids as bubblewrap reports them (`mnt-namespace`, `pid-namespace`, `net-namespace`, …). */
  readonly namespaces: Record<string, number>;
  /**
   * `uts:[inode]` of the sandbox's UTS namespace, read from PID 1 at launch (undefined when PID 1 was already gone):
   * what a helper joining it by PID 1's number checks it joined, since the number may since name a host process.
   */
  readonly utsNamespace: string | undefined;
  /** Resolves when the sandbox has ended (every process inside is gone). Never rejects. */
  readonly exited: Promise<SandboxExit>;
  /** The last 64 KiB the command wrote to stdout and stderr (for errors and tests). */
  output(): { stdout: string; stderr: string };
  /** Host pids of the sandbox: the outer bubblewrap and every process of its PID namespace (from the host's /proc). */
  hostPids(): Promise<number[]>;
  /** Kills every process of the sandbox (SIGKILL to its PID 1) and resolves once all are gone. Idempotent. */
  kill(): Promise<void>;
  /** SIGKILLs the sandbox's PID 1 without waiting (for an exiting server); nothing when it is already gone. */
  killNow(): void;
}

const KEEP_OUTPUT = 64 * 1024;

/**
 * PID 1 of every sprite: the host's `/bin/sh` (dash) runs the command in the background and `wait`s for it, which
 * reaps every orphan too (dash's `wait` collects any child), then exits with the command's status, so the PID
 * namespace ends with the command. It replaces bubblewrap's own reaper, whose command line (`bwrap --bind
 * <host path> / …`) every process inside could read in `/proc/1/cmdline` (`ps`). Its own line names no host path:
 * `/bin/sh -c "$@" & wait $! sprite-init <command…>`.
 * @see docs/sandbox.md (`ps` inside a sprite shows only the sprite's own processes), bwrap(1) `--as-pid-1`
 */
export const SPRITE_INIT = ['/bin/sh', '-c', '"$@" & wait $!', 'sprite-init'] as const;
const SAFE_PATH = /^\/[^,:\\\n]*$/;

/**
 * The shell run in the private mount namespace: join the cgroups, mount each overlay, then become bubblewrap.
 * Arguments: merged dir, overlay count, then (lower, upper, work, target) per overlay, then the command.
 */
const WRAPPER = `set -e
IFS='
'
for f in $SPRITZER_CGROUP_PROCS; do echo $$ > "$f"; done
unset SPRITZER_CGROUP_PROCS
m=$1; n=$2; shift 2
while [ "$n" -gt 0 ]; do
  mount -t overlay overlay -o "lowerdir=$1,upperdir=$2,workdir=$3" "$m$4"
  shift 4; n=$((n-1))
done
exec "$@"`;

/** With a user namespace: join the cgroups, then the helper does the mounts and becomes the namespace's root. */
const WRAPPER_USERNS = `for f in $SPRITZER_CGROUP_PROCS; do echo $$ > "$f" || exit 125; done
unset SPRITZER_CGROUP_PROCS
exec "$@"`;

/**
 * The host directories overlayfs stacks below a tree's upper layer, topmost first: the tree's whiteouts (rootfs.ts
 * `RootTree.hidden`), then the tree; each with the name of its idmapped view in `SpriteUserNamespace.lowerDir`.
 */
function lowerLayers(t: RootTree): Array<{ host: string; view: string }> {
  return [...(t.hidden ? [{ host: t.hidden, view: `${t.name}.hidden` }] : []), { host: t.lower, view: t.name }];
}

/** bwrap's `--seccomp` descriptor: after stdin, stdout, stderr and the `--info-fd` pipe (3). */
export const SECCOMP_FD = 4;

/**
 * The full argv (`unshare …`) that starts the sandbox `spec`, for `launch` and for tests that inspect it.
 * Throws when a path holds a character overlayfs options cannot carry (`,`, `:`, `\`, newline).
 */
export function sandboxArgv(spec: LaunchSpec): string[] {
  const overlays: string[] = [];
  const idmaps: string[] = [];
  for (const t of spec.base.trees) {
    const upper = join(spec.layerDir, t.name, 'upper');
    const work = join(spec.layerDir, t.name, 'work');
    const layers = lowerLayers(t).map((l) => ({ host: l.host, at: spec.userns ? join(spec.userns.lowerDir, l.view) : l.host }));
    for (const p of [...layers.flatMap((l) => [l.host, l.at]), upper, work, spec.mergedDir]) {
      if (!SAFE_PATH.test(p)) throw new Error(`sandbox path ${JSON.stringify(p)} must be absolute and hold no , : \\ or newline`);
    }
    if (spec.userns) for (const l of layers) idmaps.push(l.host, l.at);
    overlays.push(layers.map((l) => l.at).join(':'), upper, work, spec.userns ? `${spec.mergedDir}${t.target === '/' ? '' : t.target}` : t.target === '/' ? '' : t.target);
  }
  const bwrap = [
    'bwrap', '--bind', spec.mergedDir, '/', '--proc', '/proc', '--dev', '/dev', '--perms', '1777', ...(spec.shmBytes ? ['--size', String(spec.shmBytes)] : []), '--tmpfs', '/dev/shm',
    '--unshare-pid', '--unshare-ipc', '--unshare-net', '--unshare-uts', '--unshare-cgroup-try',
    '--hostname', spec.hostname, '--die-with-parent', '--new-session', '--info-fd', '3', '--as-pid-1',
    '--clearenv', '--setenv', 'PATH', SANDBOX_PATH, '--setenv', 'HOME', '/root',
    '--cap-drop', 'ALL', ...(spec.caps ?? AGENT_CAPS).flatMap((c) => ['--cap-add', c]),
    ...(spec.seccompFile ? ['--seccomp', String(SECCOMP_FD)] : []),
  ];
  for (const [k, v] of Object.entries(spec.env ?? {})) bwrap.push('--setenv', k, v);
  for (const m of spec.mounts ?? []) {
    if (m.kind === 'bind' || m.kind === 'ro-bind') bwrap.push(`--${m.kind}`, m.src, m.dest);
    else bwrap.push(`--${m.kind}`, m.dest);
  }
  bwrap.push('--chdir', spec.cwd ?? '/', '--', ...SPRITE_INIT, ...spec.command);
  const limits = spec.cgroup ? [] : prlimitArgs(spec.rlimits ?? {});
  const limited = limits.length ? ['prlimit', ...limits, '--', ...bwrap] : bwrap;
  const ns = spec.userns;
  if (ns) {
    const helper = [ns.helper, String(ns.hostBase), String(ns.size), String(ns.inotifyInstances ?? 0), String(ns.inotifyWatches ?? 0),
      String(idmaps.length / 2), ...idmaps, String(overlays.length / 4), ...overlays, '--'];
    return ['unshare', '--mount', '--propagation', 'private', '--', '/bin/sh', '-c', WRAPPER_USERNS, 'spritzer-sandbox', ...helper, ...limited];
  }
  return ['unshare', '--mount', '--propagation', 'private', '--', '/bin/sh', '-c', WRAPPER, 'spritzer-sandbox',
    spec.mergedDir, String(spec.base.trees.length), ...overlays, ...limited];
}

/**
 * Starts the sandbox described by `spec` and resolves once bubblewrap reports its namespaces (the command is
 * then starting as pid 2 under SPRITE_INIT, PID 1). Rejects with the sandbox's stderr when it fails
 * before that (a failed mount, a missing command…), or after `timeoutMs`.
 * Runs as root (mounting overlayfs and unsharing namespaces without a user namespace need it).
 * @see docs/sandbox.md, bwrap(1)
 */
export async function launch(spec: LaunchSpec): Promise<Sandbox> {
  await mkdir(spec.mergedDir, { recursive: true });
  if (spec.userns) {
    for (const t of spec.base.trees) for (const l of lowerLayers(t)) await mkdir(join(spec.userns.lowerDir, l.view), { recursive: true });
  }
  const [file, ...args] = sandboxArgv(spec);
  const env: NodeJS.ProcessEnv = { PATH: SANDBOX_PATH, SPRITZER_CGROUP_PROCS: (spec.cgroup?.procsFiles ?? []).join('\n') };
  const seccomp = spec.seccompFile ? await open(spec.seccompFile, 'r') : undefined;
  let child: ChildProcess;
  try {
    child = spawn(file!, args, { stdio: ['ignore', 'pipe', 'pipe', 'pipe', ...(seccomp ? [seccomp.fd] : [])], env });
  } finally {
    await seccomp?.close();
  }
  const out = { stdout: '', stderr: '' };
  for (const stream of ['stdout', 'stderr'] as const) {
    child[stream]!.on('data', (chunk: Buffer) => {
      out[stream] = (out[stream] + chunk.toString('utf8')).slice(-KEEP_OUTPUT);
      spec.onOutput?.(stream, chunk);
    });
  }
  const exited = new Promise<SandboxExit>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
    child.once('error', () => resolve({ code: null, signal: null }));
  });
  const info = await readInfo(child, exited, spec.timeoutMs ?? 10_000).catch(async (err: Error) => {
    child.kill('SIGKILL');
    await exited;
    throw new Error(`sandbox ${spec.hostname} failed to start: ${err.message}${out.stderr ? `: ${out.stderr.trim()}` : ''}`);
  });
  // The PID namespace PID 1 is in, read while it surely runs: a later signal goes to that pid only while it still is
  // that namespace's init, never to a host process that reused the number (pid_max is often 32768).
  const [initNs, utsNs] = await Promise.all(
    ['pid', 'uts'].map((kind) => readlink(`/proc/${info['child-pid']}/ns/${kind}`).catch(() => undefined)),
  );
  return new RunningSandbox(child, info, initNs, utsNs, exited, out, spec.cgroup);
}

class RunningSandbox implements Sandbox {
  readonly pid: number;
  readonly initPid: number;
  readonly namespaces: Record<string, number>;
  private killing?: Promise<void>;

  constructor(
    private readonly child: ChildProcess,
    info: Record<string, number>,
    /** `pid:[inode]` of the sandbox's PID namespace; undefined when PID 1 was gone before it could be read. */
    private readonly initNs: string | undefined,
    readonly utsNamespace: string | undefined,
    readonly exited: Promise<SandboxExit>,
    private readonly out: { stdout: string; stderr: string },
    private readonly cgroup?: SpriteCgroup,
  ) {
    this.pid = child.pid!;
    this.initPid = info['child-pid']!;
    this.namespaces = Object.fromEntries(Object.entries(info).filter(([k]) => k.endsWith('-namespace')));
  }

  output(): { stdout: string; stderr: string } {
    return { ...this.out };
  }

  async hostPids(): Promise<number[]> {
    const ns = this.initNs;
    if (!ns) return [];
    const pids = [this.pid];
    for (const name of await readdir('/proc')) {
      if (/^\d+$/.test(name) && (await readlink(`/proc/${name}/ns/pid`).catch(() => '')) === ns) pids.push(Number(name));
    }
    return pids;
  }

  killNow(): void {
    if (!this.initNs) return;
    try {
      if (readlinkSync(`/proc/${this.initPid}/ns/pid`) === this.initNs) process.kill(this.initPid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }

  kill(): Promise<void> {
    this.killing ??= (async () => {
      this.killNow();
      // The outer bwrap reaps PID 1, which the kernel lets exit only after every process of the namespace.
      const backstop = setTimeout(() => this.child.kill('SIGKILL'), 2000);
      await this.exited;
      clearTimeout(backstop);
      if (this.cgroup) await waitEmpty(this.cgroup);
    })();
    return this.killing;
  }
}

/** Reads bubblewrap's `--info-fd` JSON (`child-pid`, namespace ids) from the child's fd 3. */
function readInfo(child: ChildProcess, exited: Promise<SandboxExit>, timeoutMs: number): Promise<Record<string, number>> {
  return new Promise((resolve, reject) => {
    const fd3 = child.stdio[3] as NodeJS.ReadableStream;
    let text = '';
    const timer = setTimeout(() => reject(new Error(`no namespace report after ${timeoutMs} ms`)), timeoutMs);
    const done = (err?: Error, value?: Record<string, number>) => {
      clearTimeout(timer);
      fd3.removeAllListeners('data');
      if (err) reject(err);
      else resolve(value!);
    };
    fd3.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      try {
        const info = JSON.parse(text) as Record<string, number>;
        if (typeof info['child-pid'] === 'number') done(undefined, info);
      } catch {
        /* incomplete */
      }
    });
    fd3.on('error', () => undefined);
    void exited.then((e) => done(new Error(`exited (${e.signal ?? e.code}) before its namespaces were ready`)));
  });
}

/** Waits until the sprite's cgroup holds no process (polls every 5 ms, up to 5 s). */
async function waitEmpty(cgroup: SpriteCgroup): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    const pids = await cgroup.pids();
    if (pids.length === 0) return;
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Where the agent's files are on the host (see `agentMounts`). */
export interface AgentFiles {
  /** The node binary (default `process.execPath`). */
  node: string;
  /** The bundle (`dist/agent/agent.mjs`, built by `npm run build:agent`). */
  bundle: string;
  /** The node-pty package directory, when installed. */
  nodePtyDir?: string;
  /** Host directory bound read-write at `/.sprite/run` (the agent creates `agent.sock` there). */
  runDir: string;
  /** The sprite's pids cgroup files, bound read-only at `AGENT_PIDS_FILES` (protocol/sprite-tree.ts). */
  pidsFiles?: { max: string; current: string };
  /**
   * The run-as helper (agent/native.ts, readable and executable by others), bound read-only at `RUNAS_PATH`: the
   * agent starts processes through it (`--run-as`), which gives an exec session's processes their capabilities.
   */
  runAs?: string;
}


/** The agent's command line inside the sprite. @see src/agent/main.ts (the contract with the agent) */
export const AGENT_COMMAND = ['/.sprite/bin/node', '/.sprite/agent/agent.mjs', '--socket', '/.sprite/run/agent.sock'];

/**
 * The mounts that make the agent runnable inside a sprite: the node binary read-only at `/.sprite/bin/node`, the
 * bundle read-only at `/.sprite/agent/agent.mjs`, the run-as helper at `RUNAS_PATH` and node-pty at `/.sprite/agent/node_modules/node-pty` (on a
 * tmpfs at `/.sprite/agent`, then made read-only, with the sprite's pids cgroup files when given), and `runDir`
 * read-write at `/.sprite/run`.
 */
export function agentMounts(files: AgentFiles): SandboxMount[] {
  const mounts: SandboxMount[] = [
    { kind: 'ro-bind', src: files.node, dest: '/.sprite/bin/node' },
    { kind: 'tmpfs', dest: '/.sprite/agent' },
    { kind: 'ro-bind', src: files.bundle, dest: '/.sprite/agent/agent.mjs' },
  ];
  if (files.nodePtyDir) mounts.push({ kind: 'ro-bind', src: files.nodePtyDir, dest: '/.sprite/agent/node_modules/node-pty' });
  if (files.runAs) mounts.push({ kind: 'ro-bind', src: files.runAs, dest: RUNAS_PATH });
  if (files.pidsFiles) {
    mounts.push({ kind: 'ro-bind', src: files.pidsFiles.max, dest: AGENT_PIDS_FILES.max }, { kind: 'ro-bind', src: files.pidsFiles.current, dest: AGENT_PIDS_FILES.current });
  }
  mounts.push({ kind: 'remount-ro', dest: '/.sprite/agent' }, { kind: 'bind', src: files.runDir, dest: '/.sprite/run' });
  return mounts;
}
