import { describe, expect, it } from 'vitest';
import { CpuYield, DEFAULT_CPU_YIELD, nextCpuState, type CpuCgroups } from './cpu-yield.ts';

const policy = { afterMs: 3000, busyCores: 0.9, quietCores: 0.5, watchCores: 0.2 };

describe('nextCpuState', () => {
  it('yields only after a whole busy streak of afterMs, and counts the streak from its first sample’s start', () => {
    let s = nextCpuState({ yielding: false }, 1.0, 0, 1000, policy);
    expect(s).toEqual({ yielding: false, streakFrom: 0 });
    s = nextCpuState(s, 0.95, 1000, 2000, policy);
    expect(s.yielding).toBe(false);
    s = nextCpuState(s, 2.0, 2000, 3000, policy);
    expect(s).toEqual({ yielding: true });
  });

  it('a quiet sample ends a busy streak: short bursts never yield', () => {
    let s = nextCpuState({ yielding: false }, 1, 0, 1000, policy);
    s = nextCpuState(s, 1, 1000, 2000, policy);
    s = nextCpuState(s, 0.2, 2000, 3000, policy);
    expect(s).toEqual({ yielding: false });
    s = nextCpuState(s, 1, 3000, 4000, policy);
    s = nextCpuState(s, 1, 4000, 5000, policy);
    expect(s.yielding).toBe(false);
  });

  it('a yielding sprite gets its weight back after afterMs under quietCores, not while it stays above', () => {
    let s = nextCpuState({ yielding: true }, 0.7, 0, 1000, policy);
    expect(s).toEqual({ yielding: true });
    s = nextCpuState(s, 0.1, 1000, 2500, policy);
    expect(s).toEqual({ yielding: true, streakFrom: 1000 });
    s = nextCpuState(s, 0.4, 2500, 4000, policy);
    expect(s).toEqual({ yielding: false });
  });

  it('the defaults yield after 3 s asking for 0.75 core and stop after 3 s under 0.4, looking closer from 0.1 core used', () => {
    expect(DEFAULT_CPU_YIELD).toEqual({ afterMs: 3000, busyCores: 0.75, quietCores: 0.4, watchCores: 0.1 });
  });
});

/** Cgroups whose counters the test moves (CPU used, and one task per sprite whose run + wait grows), recording writes. */
function fakeCgroups(withIdle = true) {
  const used = new Map<string, number>();
  const asked = new Map<string, number>();
  const idle = new Map<string, boolean>();
  const cgroups: CpuCgroups = {
    cpuUsage: async () => new Map(used),
    cpuDemand: async (name) => new Map([[1, asked.get(name) ?? 0]]),
    setCpuIdle: async (name, v) => {
      if (!withIdle) return false;
      idle.set(name, v);
      return true;
    },
  };
  /** Advances sprite `name` by one second of `usedCores` got and `askedCores` asked for. */
  const tick = (name: string, usedCores: number, askedCores: number) => {
    used.set(name, (used.get(name) ?? 1) + usedCores * 1e9);
    asked.set(name, (asked.get(name) ?? 0) + askedCores * 1e9);
  };
  return { used, idle, cgroups, tick };
}

describe('CpuYield', () => {
  it('a sprite that asks for a core yields even when it gets only a share of one; a quiet one does not', async () => {
    const { idle, cgroups, tick } = fakeCgroups();
    let now = 0;
    const changes: string[] = [];
    const y = new CpuYield(cgroups, policy, () => now, (name, v) => changes.push(`${name}=${v}`));
    for (let i = 0; i <= 5; i++) {
      now = i * 1000;
      tick('spinner', 0.4, 1); // five contenders on two cores: it gets 0.4 of the core it asks for
      tick('echoes', 0.3, 0.35);
      await y.sample();
    }
    expect(idle.get('spinner')).toBe(true);
    expect(idle.has('echoes')).toBe(false);
    expect(y.yielding()).toEqual(['spinner']);
    // Yielding, it may get no CPU at all while it still asks for a core: it keeps yielding.
    for (let i = 6; i <= 9; i++) {
      now = i * 1000;
      tick('spinner', 0, 1);
      await y.sample();
    }
    expect(y.yielding()).toEqual(['spinner']);
    for (let i = 10; i <= 14; i++) {
      now = i * 1000;
      tick('spinner', 0.01, 0.01);
      await y.sample();
    }
    expect(idle.get('spinner')).toBe(false);
    expect(y.yielding()).toEqual([]);
    expect(changes).toEqual(['spinner=true', 'spinner=false']);
  });

  it('a sprite whose CPU goes to tasks no look sees (short-lived, or past the tasks read) yields on what it used', async () => {
    const { cgroups, tick } = fakeCgroups();
    let now = 0;
    const y = new CpuYield(cgroups, policy, () => now);
    for (let i = 0; i <= 5; i++) {
      now = i * 1000;
      tick('forks', 0.9, 0); // a fork bomb: the tasks that ran are gone by the next look
      await y.sample();
    }
    expect(y.yielding()).toEqual(['forks']);
  });

  it('a sprite using little CPU is not looked at closer and never yields', async () => {
    const { cgroups, tick } = fakeCgroups();
    let now = 0;
    const y = new CpuYield(cgroups, policy, () => now);
    for (let i = 0; i <= 6; i++) {
      now = i * 1000;
      tick('s', 0.1, 5); // its tasks' times would say busy, but it used under watchCores
      await y.sample();
    }
    expect(y.yielding()).toEqual([]);
  });

  it('a busy streak goes on through a second in which the sprite got almost no CPU (it still asked for a core)', async () => {
    const { cgroups, tick } = fakeCgroups();
    let now = 0;
    const y = new CpuYield(cgroups, policy, () => now);
    const got = [0.5, 0.5, 0.5, 0.02, 0.5, 0.5];
    for (let i = 0; i < got.length; i++) {
      now = i * 1000;
      tick('s', got[i]!, 1);
      await y.sample();
    }
    expect(y.yielding()).toEqual(['s']);
  });

  it('forgets a sprite whose cgroup is gone, and a new one of the same name starts fresh', async () => {
    const { used, cgroups, tick } = fakeCgroups();
    let now = 0;
    const y = new CpuYield(cgroups, policy, () => now);
    for (let i = 0; i <= 5; i++) {
      now = i * 1000;
      tick('s', 1, 1);
      await y.sample();
    }
    expect(y.yielding()).toEqual(['s']);
    used.delete('s');
    now = 6000;
    await y.sample();
    expect(y.yielding()).toEqual([]);
    now = 7000;
    tick('s', 1, 1);
    await y.sample();
    expect(y.yielding()).toEqual([]);
  });

  it('without cpu.idle in the kernel, no sprite is reported yielding', async () => {
    const { cgroups, tick } = fakeCgroups(false);
    let now = 0;
    const y = new CpuYield(cgroups, policy, () => now);
    for (let i = 0; i <= 6; i++) {
      now = i * 1000;
      tick('s', 1, 1);
      await y.sample();
    }
    expect(y.yielding()).toEqual([]);
  });
});
