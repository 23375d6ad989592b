/**
 * What a host is contended on during a phase of a benchmark, from the kernel's own counters, so that a latency
 * ratio comes with its cause: where the CPU went (spritzer's process, kernel threads by kind — kworker, loop, btrfs, kswapd —, everything else),
 * memory reclaim (direct scans and stalls, /proc/vmstat), writeback (pages written out, dirty pages), and the
 * pressure stall totals (/proc/pressure: the share of time some task waited for a CPU, for memory, for I/O — the
 * run queue's evidence, as kernels built without schedstats have no /proc/schedstat). Linux only; a counter the
 * kernel lacks reads 0.
 * @see proc(5) /proc/stat, /proc/vmstat, /proc/[pid]/stat; Documentation/accounting/psi.rst
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/[pid]/stat times (USER_HZ: 100 on every Linux this runs on). */
const USER_HZ = 100;

/** Kernel threads grouped by what their name says they do (`kworker/u4:2-btrfs-endio-write` → `kworker`). */
const KTHREAD_KINDS = ['kworker', 'loop', 'btrfs', 'kswapd', 'jbd2', 'ksoftirqd', 'kcompactd', 'rcu'] as const;

/** Counters read at one instant. */
interface Reading {
  at: number;
  /** CPU seconds of each kernel thread by pid, with its kind. */
  kthreads: Map<string, { kind: string; secs: number }>;
  /** CPU seconds of this process (spritzer, in a bench that runs it in-process). */
  self: number;
  /** CPU seconds the whole host spent busy (/proc/stat `cpu`: everything but idle and iowait). */
  busy: number;
  vm: Record<string, number>;
  /** PSI `some` totals in µs by resource. */
  psi: Record<string, number>;
}

const VM_KEYS = ['pgscan_direct', 'pgsteal_direct', 'allocstall_normal', 'allocstall_movable', 'pgscan_kswapd', 'pgpgout', 'pgmajfault', 'workingset_refault_file', 'pswpout'];

function read(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

function sample(): Reading {
  const kthreads = new Map<string, { kind: string; secs: number }>();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const stat = read(`/proc/${pid}/stat`);
    const close = stat.lastIndexOf(')');
    if (close < 0) continue;
    const name = stat.slice(stat.indexOf('(') + 1, close);
    const f = stat.slice(close + 2).split(' ');
    // Kernel threads are kthreadd (pid 2) and its children.
    if (pid !== '2' && f[1] !== '2') continue;
    const secs = (Number(f[11]) + Number(f[12])) / USER_HZ;
    const kind = KTHREAD_KINDS.find((k) => name.startsWith(k) || name.includes(`-${k}`)) ?? 'other';
    kthreads.set(pid, { kind, secs });
  }
  const cpu = read('/proc/stat').split('\n')[0]!.split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal: busy is all but idle (3) and iowait (4).
  const busy = cpu.slice(0, 8).reduce((a, b, i) => (i === 3 || i === 4 ? a : a + b), 0) / USER_HZ;
  const vm: Record<string, number> = {};
  for (const line of read('/proc/vmstat').split('\n')) {
    const [k, v] = line.split(' ');
    if (k && VM_KEYS.includes(k)) vm[k] = Number(v);
  }
  const psi: Record<string, number> = {};
  for (const res of ['cpu', 'memory', 'io']) psi[res] = Number(/some .*total=(\d+)/.exec(read(`/proc/pressure/${res}`))?.[1] ?? 0);
  const usage = process.cpuUsage();
  return { at: performance.now(), kthreads, self: (usage.user + usage.system) / 1e6, busy, vm, psi };
}

/** What one phase contended on: rates over its wall time. */
export interface Contention {
  seconds: number;
  /** Cores' worth of CPU used by spritzer, by kernel threads (all and by kind), and by everything else. */
  cores: { spritzer: number; kthreads: number; other: number; byKthread: Record<string, number> };
  /** Per second: pages scanned and reclaim stalls of direct reclaim, kswapd scans, KiB written out, major faults. */
  perSecond: Record<string, number>;
  /** Share of the phase some task waited for a CPU / for memory / for I/O (PSI `some`; 0 where the kernel has none). */
  stalled: Record<string, number>;
}

/**
 * Starts measuring; `stop()` returns what the host contended on since. Reads /proc twice (a few ms each), nothing
 * in between, so it costs the phase nothing.
 */
export function measureContention(): { stop(): Contention } {
  const a = sample();
  return {
    stop(): Contention {
      const b = sample();
      const seconds = (b.at - a.at) / 1000;
      const rate = (x: number) => x / seconds;
      // Per thread: a kernel thread that ended during the phase took its time with it (a sum over all would go down),
      // one that started counts from zero.
      const byKthread: Record<string, number> = {};
      let all = 0;
      for (const [pid, t] of b.kthreads) {
        const used = Math.max(0, t.secs - (a.kthreads.get(pid)?.secs ?? 0));
        byKthread[t.kind] = (byKthread[t.kind] ?? 0) + rate(used);
        all += used;
      }
      const spritzer = rate(b.self - a.self);
      const kthreads = rate(all);
      const dv = (k: string) => rate((b.vm[k] ?? 0) - (a.vm[k] ?? 0));
      return {
        seconds,
        cores: { spritzer, kthreads, other: Math.max(0, rate(b.busy - a.busy) - spritzer - kthreads), byKthread },
        perSecond: {
          'direct reclaim scans': dv('pgscan_direct'),
          'reclaim stalls': dv('allocstall_normal') + dv('allocstall_movable'),
          'kswapd scans': dv('pgscan_kswapd'),
          'KiB written out': dv('pgpgout'),
          'major faults': dv('pgmajfault'),
        },
        stalled: Object.fromEntries(Object.keys(b.psi).map((r) => [r, rate((b.psi[r]! - a.psi[r]!) / 1e6)])),
      };
    },
  };
}

/** Rows comparing phases side by side (`label → contention`), for a benchmark's report. */
export function contentionTable(phases: Record<string, Contention>): string {
  const names = Object.keys(phases);
  const rows: Array<[string, (c: Contention) => number, number]> = [
    ['cores: spritzer', (c) => c.cores.spritzer, 2],
    ['cores: kernel threads', (c) => c.cores.kthreads, 2],
    ...[...KTHREAD_KINDS, 'other'].map((k): [string, (c: Contention) => number, number] => [`  ${k}`, (c) => c.cores.byKthread[k] ?? 0, 2]),
    ['cores: everything else', (c) => c.cores.other, 2],
    ...['direct reclaim scans', 'reclaim stalls', 'kswapd scans', 'KiB written out', 'major faults'].map((k): [string, (c: Contention) => number, number] => [`${k} /s`, (c) => c.perSecond[k] ?? 0, 0]),
    ...['cpu', 'memory', 'io'].map((r): [string, (c: Contention) => number, number] => [`share stalled on ${r} (PSI some)`, (c) => c.stalled[r] ?? 0, 2]),
  ];
  const width = 34;
  const lines = [`${'host counters'.padEnd(width)}${names.map((n) => n.padStart(14)).join('')}`];
  for (const [label, get, digits] of rows) {
    const values = names.map((n) => get(phases[n]!));
    if (label.startsWith('  ') && values.every((v) => v < 0.005)) continue;
    lines.push(`${label.padEnd(width)}${values.map((v) => v.toFixed(digits).padStart(14)).join('')}`);
  }
  return lines.join('\n');
}
