import { describe, expect, it } from 'vitest';
import { CpuYield, DEFAULT_CPU_YIELD, nextCpuState, type CpuCgroups } from './cpu-yield.ts';

const policy = { afterMs: 3000, busyCores: 0.9, quietCores: 0.5 };

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

  it('the defaults yield after 3 s at 0.9 core', () => {
    expect(DEFAULT_CPU_YIELD).toEqual(policy);
  });
});

/** Cgroups whose counters the test moves, recording what was written. */
function fakeCgroups(withIdle = true) {
  const usage = new Map<string, number>();
  const idle = new Map<string, boolean>();
  const cgroups: CpuCgroups = {
    cpuUsage: async () => new Map(usage),
    setCpuIdle: async (name, v) => {
      if (!withIdle) return false;
      idle.set(name, v);
      return true;
    },
  };
  return { usage, idle, cgroups };
}

describe('CpuYield', () => {
  it('marks the spinning sprite idle and leaves the quiet one alone, then gives the weight back when it stops', async () => {
    const { usage, idle, cgroups } = fakeCgroups();
    let now = 0;
    const changes: string[] = [];
    const y = new CpuYield(cgroups, policy, () => now, (name, v) => changes.push(`${name}=${v}`));
    usage.set('busy', 1).set('quiet', 1);
    await y.sample();
    for (let i = 1; i <= 4; i++) {
      now = i * 1000;
      usage.set('busy', usage.get('busy')! + 1e9).set('quiet', usage.get('quiet')! + 5e6);
      await y.sample();
    }
    expect(idle.get('busy')).toBe(true);
    expect(idle.has('quiet')).toBe(false);
    expect(y.yielding()).toEqual(['busy']);
    for (let i = 5; i <= 8; i++) {
      now = i * 1000;
      usage.set('busy', usage.get('busy')! + 1e7);
      await y.sample();
    }
    expect(idle.get('busy')).toBe(false);
    expect(y.yielding()).toEqual([]);
    expect(changes).toEqual(['busy=true', 'busy=false']);
  });

  it('forgets a sprite whose cgroup is gone, and a new one of the same name starts fresh', async () => {
    const { usage, cgroups } = fakeCgroups();
    let now = 0;
    const y = new CpuYield(cgroups, policy, () => now);
    usage.set('s', 1);
    for (let i = 0; i <= 4; i++) {
      now = i * 1000;
      usage.set('s', 1 + i * 1e9);
      await y.sample();
    }
    expect(y.yielding()).toEqual(['s']);
    usage.delete('s');
    now = 5000;
    await y.sample();
    expect(y.yielding()).toEqual([]);
    usage.set('s', 10);
    now = 6000;
    await y.sample();
    expect(y.yielding()).toEqual([]);
  });

  it('without cpu.idle in the kernel, no sprite is reported yielding', async () => {
    const { usage, cgroups } = fakeCgroups(false);
    let now = 0;
    const y = new CpuYield(cgroups, policy, () => now);
    for (let i = 0; i <= 5; i++) {
      now = i * 1000;
      usage.set('s', 1 + i * 1e9);
      await y.sample();
    }
    expect(y.yielding()).toEqual([]);
  });
});
