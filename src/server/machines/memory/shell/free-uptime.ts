/**
 * procps-ng's `free` and `uptime` (4.0, a sprite's Ubuntu's) for the shell engine: `free` reads the memory that the
 * sprite's `/proc/meminfo` shows (proc.ts), `uptime` counts from the machine's boot and shows the idle load
 * `/proc/loadavg` gives, with no logged-in user (an exec has no utmp entry).
 * @see free(1), uptime(1) (procps-ng)
 */
import { defineCommand, type CustomCommand, type ExecResult } from 'just-bash';
import { MEMINFO_KB } from './proc.ts';

const fail = (stderr: string, exitCode = 1): ExecResult => ({ stdout: '', stderr, exitCode });

/** The procps-ng release the shell engine's free, uptime and ps say they are (`--version`). */
export const PROCPS_VERSION = '4.0.2';

/** procps's human-readable size of `kib` KiB: the shortest of `%.1f` then `%ld` with a unit that fits the width. */
function humanSize(kib: number, si: boolean): string {
  const bytes = kib * 1024;
  if (`${bytes}B`.length <= 4) return `${bytes}B`;
  const units = si ? ['K', 'M', 'G', 'T', 'P'] : ['Ki', 'Mi', 'Gi', 'Ti', 'Pi'];
  const width = si ? 4 : 5;
  for (let i = 0; i < units.length; i++) {
    const value = bytes / (si ? 1000 : 1024) ** (i + 1);
    const fixed = `${value.toFixed(1)}${units[i]}`;
    if (fixed.length <= width) return fixed;
    const whole = `${Math.trunc(value)}${units[i]}`;
    if (whole.length <= width) return whole;
  }
  return `${Math.trunc(bytes / (si ? 1000 : 1024) ** units.length)}${units[units.length - 1]}`;
}

/**
 * `free [-b|-k|-m|-g|--tera|--peta|-h] [--si] [-t] [-w]`: Mem (used is total less available, buff/cache is buffers,
 * cache and reclaimable slab) and Swap lines, a Total line with `-t`, buffers and cache apart with `-w`. `-s`/`-c`
 * (repeat) print one report: nothing changes between reports here.
 */
function free(args: string[]): ExecResult {
  let unit = 1; // KiB per printed unit, as a power of 1024 (0 = bytes)
  let human = false;
  let si = false;
  let total = false;
  let wide = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const units: Record<string, number> = { '-b': 0, '--bytes': 0, '-k': 1, '--kibi': 1, '-m': 2, '--mebi': 2, '-g': 3, '--gibi': 3, '--tebi': 4, '--pebi': 5, '--kilo': 1, '--mega': 2, '--giga': 3, '--tera': 4, '--peta': 5 };
    if (a in units) {
      unit = units[a]!;
      if (['--kilo', '--mega', '--giga', '--tera', '--peta'].includes(a)) si = true;
    } else if (a === '-h' || a === '--human') human = true;
    else if (a === '--si') si = true;
    else if (a === '-t' || a === '--total') total = true;
    else if (a === '-w' || a === '--wide') wide = true;
    else if (a === '-s' || a === '-c' || a === '--seconds' || a === '--count') i++;
    else if (/^(-[sc]\d|--(seconds|count)=)/.test(a)) continue;
    else if (a === '-V' || a === '--version') return { stdout: `free from procps-ng ${PROCPS_VERSION}\n`, stderr: '', exitCode: 0 };
    else return fail(`free: unrecognized option '${a}'\nUsage:\n free [options]\n\nUse --help for more information.\n`);
  }
  const m = MEMINFO_KB as Record<string, number>;
  const cache = (m.Cached ?? 0) + (m.SReclaimable ?? 0);
  const buffers = m.Buffers ?? 0;
  const used = m.MemTotal! - m.MemAvailable!;
  const show = (kib: number) => (human ? humanSize(kib, si) : String(Math.trunc((kib * 1024) / (si ? 1000 : 1024) ** unit)));
  const row = (label: string, values: number[]) => label.padEnd(7) + values.map((v, i) => show(v).padStart(i === 0 ? 13 : 12)).join('') + '\n';
  const head = wide ? ['total', 'used', 'free', 'shared', 'buffers', 'cache', 'available'] : ['total', 'used', 'free', 'shared', 'buff/cache', 'available'];
  let out = ' '.repeat(7) + head.map((h, i) => h.padStart(i === 0 ? 13 : 12)).join('') + '\n';
  const shared = m.Shmem ?? 0;
  out += row('Mem:', wide ? [m.MemTotal!, used, m.MemFree!, shared, buffers, cache, m.MemAvailable!] : [m.MemTotal!, used, m.MemFree!, shared, buffers + cache, m.MemAvailable!]);
  out += row('Swap:', [m.SwapTotal!, m.SwapTotal! - m.SwapFree!, m.SwapFree!]);
  if (total) out += row('Total:', [m.MemTotal! + m.SwapTotal!, used + m.SwapTotal! - m.SwapFree!, m.MemFree! + m.SwapFree!]);
  return { stdout: out, stderr: '', exitCode: 0 };
}

const two = (n: number) => String(n).padStart(2, '0');
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * `uptime [-p|-s]`: ` HH:MM:SS up [D days, ]H:MM|M min,  0 user,  load average: 0.00, 0.00, 0.00`; `-p` the time up
 * in words, `-s` when the machine booted (`YYYY-MM-DD HH:MM:SS`), in UTC (a sprite's zone).
 */
function uptime(args: string[], now: number, bootedAt: number): ExecResult {
  const secs = Math.max(0, Math.floor((now - bootedAt) / 1000));
  const days = Math.floor(secs / 86400);
  const hours = Math.floor(secs / 3600) % 24;
  const minutes = Math.floor(secs / 60) % 60;
  const clock = (ms: number) => {
    const d = new Date(ms);
    return `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
  };
  const opt = args[0];
  if (opt === '-s' || opt === '--since') {
    const d = new Date(bootedAt);
    return { stdout: `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())} ${clock(bootedAt)}\n`, stderr: '', exitCode: 0 };
  }
  if (opt === '-p' || opt === '--pretty') {
    const weeks = Math.floor(days / 7);
    const parts = [weeks && plural(weeks, 'week'), days % 7 && plural(days % 7, 'day'), hours && plural(hours, 'hour'), minutes && plural(minutes, 'minute')].filter(Boolean);
    return { stdout: `up ${parts.length > 0 ? parts.join(', ') : '0 minutes'}\n`, stderr: '', exitCode: 0 };
  }
  if (opt === '-V' || opt === '--version') return { stdout: `uptime from procps-ng ${PROCPS_VERSION}\n`, stderr: '', exitCode: 0 };
  if (opt !== undefined) return fail(`uptime: invalid option -- '${opt.replace(/^-+/, '')}'\n\nUsage:\n uptime [options]\n`);
  const up = (days ? `${plural(days, 'day')}, ` : '') + (hours ? `${String(hours).padStart(2)}:${two(minutes)}` : `${minutes} min`);
  return { stdout: ` ${clock(now)} up ${up},  0 user,  load average: 0.00, 0.00, 0.00\n`, stderr: '', exitCode: 0 };
}

/** Names of the commands of {@link freeUptimeCommands}. */
export const FREE_UPTIME_NAMES: readonly string[] = ['free', 'uptime'];

/** `free` and `uptime`, for just-bash's `customCommands`; `bootedAt` is epoch ms on the engine's clock. */
export function freeUptimeCommands(now: () => number, bootedAt: number): CustomCommand[] {
  return [defineCommand('free', async (args) => free(args)), defineCommand('uptime', async (args) => uptime(args, now(), bootedAt))];
}
