import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';
import type { Command } from 'just-bash';
import { freeUptimeCommands } from './free-uptime.ts';
import { procFile } from './proc.ts';

// procps-ng 4.0's free and uptime, laid out as they print them (checked with bash on a Debian host).

describe('free', () => {
  it('shows /proc/meminfo\'s memory in procps\'s columns, in the unit asked for', async () => {
    const r = await runShell('free -m; free -h | sed -n 2p; free -t -g | tail -1; free -w | head -1; grep MemTotal /proc/meminfo');
    expect(r).toEqual({
      stdout:
        '               total        used        free      shared  buff/cache   available\nMem:            8192         491        7372           0         327        7700\nSwap:              0           0           0\n' +
        'Mem:           8.0Gi       491Mi       7.2Gi          0B       327Mi       7.5Gi\nTotal:             8           0           7\n' +
        '               total        used        free      shared     buffers       cache   available\nMemTotal:        8388608 kB\n',
      stderr: '',
      exit: 0,
    });
  });
});

describe('uptime', () => {
  it('counts from the machine\'s boot: minutes, hours, then days; -p in words, -s the boot time', async () => {
    const boot = Date.UTC(2026, 10, 28, 6, 0, 0);
    const run = async (ms: number, args: string[] = []) => (await (freeUptimeCommands(() => boot + ms, boot)[1] as Command).execute(args, {} as never)).stdout;
    expect(await run(5 * 60_000)).toBe(' 06:05:00 up 5 min,  0 user,  load average: 0.00, 0.00, 0.00\n');
    expect(await run((3 * 60 + 7) * 60_000)).toBe(' 09:07:00 up  3:07,  0 user,  load average: 0.00, 0.00, 0.00\n');
    expect(await run(((2 * 24 + 1) * 60 + 1) * 60_000)).toBe(' 07:01:00 up 2 days,  1:01,  0 user,  load average: 0.00, 0.00, 0.00\n');
    expect(await run(((8 * 24 + 18) * 60 + 4) * 60_000, ['-p'])).toBe('up 1 week, 1 day, 18 hours, 4 minutes\n');
    expect(await run(60_000, ['-s'])).toBe('2026-11-28 06:00:00\n');
  });
});

describe('/proc/uptime', () => {
  it('holds the seconds since boot and the CPUs\' idle seconds, 2 decimals each, as uptime(1) reads them', async () => {
    const text = (b: Uint8Array | null) => (b ? new TextDecoder().decode(b) : null);
    expect(text(procFile('/proc/uptime', { pid: 1, ppid: 0, upSeconds: () => 123.456 }))).toBe('123.46 987.65\n');
    const r = await runShell("awk '{print ($1 >= 0), NF}' /proc/uptime; ls /proc | grep -x uptime");
    expect(r).toEqual({ stdout: '1 2\nuptime\n', stderr: '', exit: 0 });
  });
});
