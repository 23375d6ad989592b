/**
 * Busy sprites yield the CPU to the others. On Sprites each sprite has vCPUs of its own, so one sprite's build or
 * runaway loop never slows another sprite's `echo`; on a host with a few cores shared by every sprite, the kernel's
 * fair scheduler would split them evenly, and a sprite that runs short commands waits behind every busy neighbour.
 * So a sprite whose processes keep at least `busyCores` of CPU busy for `afterMs` is marked idle (`cpu.idle`: its
 * processes run whenever no other task wants the CPU, and yield to any that does, with no quota), and gets its normal
 * weight back once it has used less than `quietCores` for `afterMs`. A yielding sprite loses nothing on a host that
 * has CPU to spare. It only samples cgroup counters and writes one file per change; the decision is
 * {@link nextCpuState}, the sampling {@link CpuYield}.
 * @see docs/limits.md "Sprite resources", cgroups.ts, sched(7) SCHED_IDLE
 */
import type { CgroupV1 } from './cgroups.ts';

/** When a sprite yields and when it stops. */
export interface CpuYieldPolicy {
  /** How long (ms) a sprite must stay busy before it yields, and quiet before it stops yielding. */
  afterMs: number;
  /**
   * Cores a sprite asks for (the time its tasks ran or waited to run, per second of wall time) at or above which it
   * is busy: a spinning task asks for one core whether it gets it or shares it with four others.
   */
  busyCores: number;
  /** Cores asked for below which a yielding sprite is quiet. */
  quietCores: number;
  /**
   * Cores actually used below which a sprite that neither yields nor has begun a busy streak is not looked at closer
   * (its tasks' times are read only above it). Low, because a busy sprite among many gets only a small share.
   */
  watchCores: number;
}

/** A sprite's state: yielding or not, and since when (ms) the streak that would change it has lasted. */
export interface SpriteCpuState {
  yielding: boolean;
  /** Start of the current busy streak (not yielding) or quiet streak (yielding); undefined when none. */
  streakFrom?: number;
}

/** The defaults: yield after 3 s asking for ≥ 0.75 core (a service and the agent writing its log share one), stop after 3 s asking for under 0.4 core. */
export const DEFAULT_CPU_YIELD: CpuYieldPolicy = { afterMs: 3000, busyCores: 0.75, quietCores: 0.4, watchCores: 0.1 };

/**
 * The state after one sample: the sprite asked for `cores` (CPU seconds per wall second) between `from` and `to`
 * (ms). A streak starts at the sample's `from`, so `afterMs` is wall time spent busy (or quiet), however often sampled.
 */
export function nextCpuState(state: SpriteCpuState, cores: number, from: number, to: number, policy: CpuYieldPolicy): SpriteCpuState {
  const towardsChange = state.yielding ? cores < policy.quietCores : cores >= policy.busyCores;
  if (!towardsChange) return { yielding: state.yielding };
  const streakFrom = state.streakFrom ?? from;
  if (to - streakFrom >= policy.afterMs) return { yielding: !state.yielding };
  return { yielding: state.yielding, streakFrom };
}

/** What CpuYield needs of the cgroups (cgroups.ts `CgroupV1`). */
export type CpuCgroups = Pick<CgroupV1, 'cpuUsage' | 'cpuDemand' | 'setCpuIdle'>;

/** One sprite's last look: CPU used (ns) and, when its tasks were read, each task's run + wait time (ns). */
interface Look {
  at: number;
  usedNs: number;
  tasks?: Map<number, number>;
}

/**
 * Samples every sprite's CPU time (`cpuacct.usage`) each `intervalMs`; for a sprite that used at least
 * `watchCores`, is in a busy streak, or yields, reads what its tasks asked for (cgroups.ts `cpuDemand`) and applies
 * {@link nextCpuState}, writing `cpu.idle` when the state changes. Sprites appear and go with their cgroups;
 * nothing needs registering.
 */
export class CpuYield {
  private readonly looks = new Map<string, Look>();
  private readonly states = new Map<string, SpriteCpuState>();
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly cgroups: CpuCgroups,
    private readonly policy: CpuYieldPolicy = DEFAULT_CPU_YIELD,
    private readonly now: () => number = () => performance.now(),
    private readonly onChange?: (sprite: string, yielding: boolean) => void,
  ) {}

  /** Samples every `intervalMs` (the timer does not keep the process alive) until {@link stop}. */
  start(intervalMs = 1000): void {
    this.timer ??= setInterval(() => void this.sample(), intervalMs).unref();
  }

  /** Stops sampling and waits for a sample in progress. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** The cgroup names of the sprites yielding now. */
  yielding(): string[] {
    return [...this.states].filter(([, s]) => s.yielding).map(([name]) => name);
  }

  /** One round: reads every sprite's CPU time and changes `cpu.idle` where a sprite's state changed. */
  sample(): Promise<void> {
    this.running ??= this.round().finally(() => (this.running = undefined));
    return this.running;
  }

  private async round(): Promise<void> {
    const usage = await this.cgroups.cpuUsage();
    for (const name of [...this.looks.keys()]) {
      if (usage.has(name)) continue;
      this.looks.delete(name);
      this.states.delete(name);
    }
    for (const [name, usedNs] of usage) await this.look(name, usedNs);
  }

  private async look(name: string, usedNs: number): Promise<void> {
    const at = this.now();
    const prev = this.looks.get(name);
    const state = this.states.get(name) ?? { yielding: false };
    const used = prev && at > prev.at ? (usedNs - prev.usedNs) / 1e6 / (at - prev.at) : 0;
    if (!state.yielding && state.streakFrom === undefined && used < this.policy.watchCores) {
      this.looks.set(name, { at, usedNs });
      return;
    }
    const tasks = await this.cgroups.cpuDemand(name);
    this.looks.set(name, { at, usedNs, tasks });
    if (!prev?.tasks || at <= prev.at) return;
    let askedNs = 0;
    for (const [tid, ns] of tasks) askedNs += Math.max(0, ns - (prev.tasks.get(tid) ?? 0));
    // What it used is a floor of what it asked for: tasks that ended between two looks, or beyond the tasks read
    // (a fork bomb's thousands of short-lived ones), show only in the cgroup's own CPU time.
    const next = nextCpuState(state, Math.max(used, askedNs / 1e6 / (at - prev.at)), prev.at, at, this.policy);
    if (next.yielding !== state.yielding && !(await this.cgroups.setCpuIdle(name, next.yielding))) {
      // No cpu.idle (an older kernel) or the sprite is gone: nothing changes.
      this.states.set(name, { yielding: state.yielding });
      return;
    }
    if (next.yielding !== state.yielding) this.onChange?.(name, next.yielding);
    this.states.set(name, next);
  }
}
