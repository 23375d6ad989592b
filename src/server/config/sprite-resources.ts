/**
 * The resources one real sprite (`sandbox`, `container`) may hold, with defaults sized to the host they run on:
 * memory, processes (per sprite and, on `sandbox`, all sprites together), inotify instances and watches. It owns
 * the defaults and the CLI flags that change them (`--sprite-memory`, `--sprite-pids`, `--sandbox-pids-total`, `--sandbox-memory-total`,
 * `--sprite-inotify-instances`, `--sprite-inotify-watches`, `--sandbox-uid-base`, `--sandbox-cpu-yield-after`); the engines enforce them
 * (agent/cgroups.ts and native/userns.c, container/boxes.ts).
 * @see docs/limits.md "Sprite resources"
 */
import { readFileSync } from 'node:fs';
import { totalmem } from 'node:os';
import { InvalidArgumentError, Option } from 'commander';
import { parseSize } from '../core/limits.ts';

/** 2^30: far above ordinary host users and the `/etc/subuid` ranges tools hand out from 100000 (`--sandbox-uid-base`). */
export const DEFAULT_ID_BASE = 1 << 30;

/** Per-sprite resources. */
export interface SpriteResources {
  /** Memory (RSS, page cache, tmpfs such as `/dev/shm`) in bytes; past it the kernel OOM-kills inside the sprite. */
  memoryBytes: number;
  /** Processes and threads; past it fork/clone fail with EAGAIN inside the sprite. */
  pids: number;
  /** Processes and threads of all sandbox sprites together (the sandbox engine's parent cgroup). */
  pidsTotal: number;
  /** Memory of all sandbox sprites together, bytes (the parent cgroup); past it the kernel OOM-kills in some sprite. */
  memoryTotalBytes: number;
  /** inotify instances per user inside a sprite (EMFILE past it). */
  inotifyInstances: number;
  /** inotify watches per user inside a sprite (ENOSPC past it). */
  inotifyWatches: number;
  /** ms a sandbox sprite may keep a core busy before it yields the CPU to the others (0: never; cpu-yield.ts). */
  cpuYieldAfterMs: number;
}

const MiB = 1024 ** 2;
const GiB = 1024 ** 3;
const clamp = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, Math.floor(v)));

/** What the defaults are sized from. */
export interface HostFacts {
  /** Physical memory in bytes. */
  memoryBytes: number;
  /** `/proc/sys/kernel/pid_max`. */
  pidMax: number;
}

/** This host's facts (read once, synchronously: the CLI's defaults need them before it parses). */
export function hostFacts(): HostFacts {
  let pidMax = 32768;
  try {
    pidMax = Number(readFileSync('/proc/sys/kernel/pid_max', 'utf8').trim()) || pidMax;
  } catch {
    /* not Linux: the kernel's default */
  }
  return { memoryBytes: totalmem(), pidMax };
}

/**
 * The defaults for `host`: memory a quarter of the host's (at least 256 MiB, at most 8 GiB); pids a sixteenth of
 * `pid_max` (at least 256, at most 4096) per sprite and half of it for all sandbox sprites together, so sprites can
 * never take the host's whole pid space; 128 inotify instances (Linux's own per-user default) and 65,536 watches per
 * user inside a sprite (a recursive watch of `/` takes 17k–37k). Each sprite is its own host user, so the host's
 * per-user inotify limits bound each sprite's total as well. All sandbox sprites together get three quarters of the
 * host's memory (at least 256 MiB): the rest stays for spritzer and the host, however many sprites there are.
 */
export function defaultSpriteResources(host: HostFacts = hostFacts()): SpriteResources {
  return {
    memoryBytes: clamp(host.memoryBytes / 4, 256 * MiB, 8 * GiB),
    pids: clamp(host.pidMax / 16, 256, 4096),
    pidsTotal: clamp(host.pidMax / 2, 512, 4_194_304),
    memoryTotalBytes: Math.max(256 * MiB, Math.floor((host.memoryBytes * 3) / 4)),
    inotifyInstances: 128,
    inotifyWatches: 65536,
    cpuYieldAfterMs: 3000,
  };
}

/** The parsed values, as commander names them. */
export interface SpriteResourceCliOptions {
  spriteMemory: number;
  spritePids: number;
  sandboxPidsTotal: number;
  sandboxMemoryTotal: number;
  spriteInotifyInstances: number;
  spriteInotifyWatches: number;
  sandboxUidBase: number;
  sandboxCpuYieldAfter: number;
}

function wholeAtLeast(min: number) {
  return (v: string): number => {
    const n = Number(v);
    if (!/^\d+$/.test(v.trim()) || !Number.isSafeInteger(n) || n < min) throw new InvalidArgumentError(`must be a whole number, at least ${min}`);
    return n;
  };
}

function sizeAtLeast(min: number) {
  return (v: string): number => {
    let n: number;
    try {
      n = parseSize(v);
    } catch (e) {
      throw new InvalidArgumentError((e as Error).message);
    }
    if (n < min) throw new InvalidArgumentError(`must be at least ${Math.round(min / MiB)}mb`);
    return n;
  };
}

/** The flags, with env variables and the host-sized defaults (`defaults`, from this host when absent). */
export function spriteResourceOptions(defaults: SpriteResources = defaultSpriteResources()): Option[] {
  const mib = (b: number) => `${Math.round(b / MiB)}mb`;
  return [
    new Option('--sprite-memory <size>', 'sandbox and container engines: memory each sprite may use (RSS, page cache, /dev/shm); past it the kernel OOM-kills inside that sprite')
      .env('SPRITZER_SPRITE_MEMORY')
      .default(defaults.memoryBytes, `${mib(defaults.memoryBytes)} (a quarter of this host's)`)
      .argParser(sizeAtLeast(64 * MiB)),
    new Option('--sandbox-memory-total <size>', 'sandbox and container engines: memory of all sprites together; past it the kernel OOM-kills the largest process of any sprite')
      .env('SPRITZER_SANDBOX_MEMORY_TOTAL')
      .default(defaults.memoryTotalBytes, `${mib(defaults.memoryTotalBytes)} (three quarters of this host's)`)
      .argParser(sizeAtLeast(64 * MiB)),
    new Option('--sprite-pids <n>', 'sandbox and container engines: processes and threads per sprite; past it fork fails with EAGAIN in that sprite')
      .env('SPRITZER_SPRITE_PIDS')
      .default(defaults.pids)
      .argParser(wholeAtLeast(16)),
    new Option('--sandbox-pids-total <n>', 'sandbox and container engines: processes and threads of all sprites together')
      .env('SPRITZER_SANDBOX_PIDS_TOTAL')
      .default(defaults.pidsTotal)
      .argParser(wholeAtLeast(16)),
    new Option('--sprite-inotify-instances <n>', 'sandbox engine: inotify instances per user inside each sprite')
      .env('SPRITZER_SPRITE_INOTIFY_INSTANCES')
      .default(defaults.inotifyInstances)
      .argParser(wholeAtLeast(1)),
    new Option('--sprite-inotify-watches <n>', 'sandbox engine: inotify watches per user inside each sprite')
      .env('SPRITZER_SPRITE_INOTIFY_WATCHES')
      .default(defaults.inotifyWatches)
      .argParser(wholeAtLeast(1)),
    new Option('--sandbox-cpu-yield-after <ms>', 'sandbox and container engines: a sprite that keeps a core busy this long runs only on CPU no other sprite wants (until it is quiet as long); 0 never')
      .env('SPRITZER_SANDBOX_CPU_YIELD_AFTER_MS')
      .default(defaults.cpuYieldAfterMs)
      .argParser(wholeAtLeast(0)),
    new Option('--sandbox-uid-base <n>', 'sandbox engine: first host uid/gid of the sprites\' id ranges (65536 ids each, one range per sprite)')
      .env('SPRITZER_SANDBOX_UID_BASE')
      .default(DEFAULT_ID_BASE)
      .argParser(wholeAtLeast(65536)),
  ];
}

/** The `SpriteResources` the flags set. */
export function spriteResourcesFromOptions(opts: SpriteResourceCliOptions): SpriteResources {
  return {
    memoryBytes: opts.spriteMemory,
    pids: opts.spritePids,
    pidsTotal: opts.sandboxPidsTotal,
    memoryTotalBytes: opts.sandboxMemoryTotal,
    inotifyInstances: opts.spriteInotifyInstances,
    inotifyWatches: opts.spriteInotifyWatches,
    cpuYieldAfterMs: opts.sandboxCpuYieldAfter,
  };
}
