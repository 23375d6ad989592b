/**
 * A service's output logged by the agent inside the sprite: every line reaches the log (stderr marked), the host
 * gets output frames only while the process is tapped, the exit comes after the last line is written, a writer
 * that outpaces the disk is held on its pipe, and no link the sprite's code plants is followed.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Supervisor } from './supervisor.ts';
import { ProcessLogFile, HIGH_WATER_BYTES } from './service-log.ts';

const LINUX = process.platform === 'linux';
const LOG = '/.sprite/logs/services/web.log';

describe.skipIf(!LINUX)('service logs written by the agent', { timeout: 30000 }, () => {
  let root: string;
  let host: { out: string; err: string; exit?: number };
  let sup: Supervisor;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'svc-log-'));
    mkdirSync(join(root, 'home/sprite'), { recursive: true });
    host = { out: '', err: '' };
    sup = new Supervisor(
      { stdout: (_id, d) => void (host.out += d.toString()), stderr: (_id, d) => void (host.err += d.toString()), exit: (_id, code) => void (host.exit = code), started: () => undefined },
      { root, dropPrivileges: false, exitDrainMs: 100, sweepNamespace: false, logOwner: null },
    );
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const spawn = (id: number, script: string, tap: boolean) =>
    sup.spawn(id, { argv: ['sh', '-c', script], env: { PATH: '/usr/bin:/bin' }, dir: '/home/sprite', tty: false, rows: 24, cols: 80, uid: 0, gid: 0, stdin: false, log: { path: LOG, tap } });

  it('an untapped service writes only its log; the exit follows its last line', async () => {
    spawn(1, 'echo one; echo two >&2; printf tail', false);
    await vi.waitFor(() => expect(host.exit).toBe(0), { timeout: 10000 });
    expect(readFileSync(join(root, LOG), 'utf8')).toBe('one\n[stderr] two\ntail\n');
    expect([host.out, host.err]).toEqual(['', '']);
  });

  it('a tapped service also sends its output; tapping can start and stop while it runs', async () => {
    spawn(2, 'echo before; sleep 0.5; echo during; sleep 0.5; echo after', false);
    await vi.waitFor(() => expect(readFileSync(join(root, LOG), 'utf8')).toBe('before\n'), { timeout: 10000 });
    sup.tap(2, true);
    await vi.waitFor(() => expect(host.out).toBe('during\n'), { timeout: 10000 });
    sup.tap(2, false);
    await vi.waitFor(() => expect(host.exit).toBe(0), { timeout: 10000 });
    expect(host.out).toBe('during\n');
    expect(readFileSync(join(root, LOG), 'utf8')).toBe('before\nduring\nafter\n');
  });

  it('the log is created with its directories at the start, before any output', async () => {
    spawn(3, 'sleep 0.3', false);
    await vi.waitFor(() => expect(existsSync(join(root, LOG))).toBe(true), { timeout: 10000 });
    expect(readFileSync(join(root, LOG), 'utf8')).toBe('');
    await vi.waitFor(() => expect(host.exit).toBe(0), { timeout: 10000 });
  });

  it('a symbolic link planted at the log is replaced, never written through', async () => {
    mkdirSync(join(root, '.sprite/logs/services'), { recursive: true });
    writeFileSync(join(root, 'target'), 'keep\n');
    symlinkSync(join(root, 'target'), join(root, LOG));
    spawn(4, 'echo x', false);
    await vi.waitFor(() => expect(host.exit).toBe(0), { timeout: 10000 });
    expect(readFileSync(join(root, 'target'), 'utf8')).toBe('keep\n');
    expect(readFileSync(join(root, LOG), 'utf8')).toBe('x\n');
  });

  it('holds the output while more than its high-water mark waits for the file, and goes on once it is written', async () => {
    const blocked: boolean[] = [];
    const log = new ProcessLogFile(root, LOG, null, (b) => blocked.push(b));
    const line = `${'z'.repeat(1023)}\n`;
    for (let i = 0; i < (2 * HIGH_WATER_BYTES) / 1024; i++) log.push('stdout', Buffer.from(line));
    expect(blocked).toEqual([true]);
    await log.close();
    expect(blocked).toEqual([true, false]);
    expect(readFileSync(join(root, LOG), 'utf8')).toBe(line.repeat((2 * HIGH_WATER_BYTES) / 1024));
  });
});
