/**
 * The `/proc` a command reads describes that command's own process: its pid (one of its own, the shell its parent;
 * the shell's when it runs in the shell's process), its directory, the limits its shell set. Each expectation is what
 * Linux gives for the same file (proc(5)), the machine's own numbers aside.
 */
import { describe, expect, it } from 'vitest';
import { fixedPid, lazyPid, procDir, procFile, procLink, type ProcInfo } from './proc.ts';
import { runShell } from '../../../../../test/support/shell-run.ts';

const text = (b: Uint8Array | null) => (b === null ? null : new TextDecoder().decode(b));
const shell: ProcInfo = { pid: 42, ppid: 1, upSeconds: () => 12.5 };
const command = (extra: Partial<NonNullable<ProcInfo['command']>> = {}): ProcInfo => ({
  ...shell,
  command: { name: 'awk', args: ['{print}'], path: '/usr/bin/awk', pid: fixedPid(50), cwd: '/tmp', ...extra },
});

describe('/proc/self of a command', () => {
  it('stat: pid, (comm), R, the shell as parent, 52 fields; the shell read by it is sleeping (S)', () => {
    const fields = text(procFile('/proc/self/stat', command()))!.trimEnd().split(' ');
    expect(fields.slice(0, 4)).toEqual(['50', '(awk)', 'R', '42']);
    expect(fields).toHaveLength(52);
    expect(text(procFile('/proc/42/stat', command()))!.split(' ').slice(0, 4)).toEqual(['42', '(bash)', 'S', '1']);
    expect(text(procFile('/proc/42/status', command()))).toMatch(/^Name:\tbash\nState:\tS \(sleeping\)\nTgid:\t42\n/);
  });

  it('cwd: the directory it runs in; /proc/$$/cwd the same (the shell started it there)', () => {
    expect(procLink('/proc/self/cwd', command())).toBe('/tmp');
    expect(procLink('/proc/42/cwd', command())).toBe('/tmp');
    // From a subshell, the shell's own directory is not known: no link rather than a wrong one.
    expect(procLink('/proc/42/cwd', { ...command(), subshell: 44 })).toBeNull();
  });

  it('/proc/self links to its pid, given on first use; /proc/PID of it is itself', () => {
    let next = 60;
    const info = command({ pid: lazyPid(() => ++next) });
    expect(procLink('/proc/self', info)).toBe('61');
    expect(procLink('/proc/self', info)).toBe('61');
    expect(text(procFile('/proc/61/comm', info))).toBe('awk\n');
    expect(procDir('/proc/61', info)).toContain('limits');
  });

  it('limits: Linux\'s table, in bytes, with the limits its shell set', () => {
    const limits = text(procFile('/proc/self/limits', command({ shellVariables: new Map([['__spritzer_ulimit', 'n:100:200 s:4096:unlimited']]) })))!.split('\n');
    expect(limits[0]).toBe('Limit                     Soft Limit           Hard Limit           Units     ');
    expect(limits).toContain('Max open files            100                  200                  files     ');
    expect(limits).toContain('Max stack size            4194304              unlimited            bytes     ');
    expect(limits).toContain('Max nice priority         0                    0                    ');
    expect(limits).toHaveLength(18);
  });
});

describe('/proc/self through the shell engine', () => {
  // Real bash 5.2's output for each script.
  it('a command sees its own directory, pid and parent; a pipeline stage\'s command is the stage\'s process', async () => {
    const r = await runShell('cd /tmp && readlink /proc/self/cwd; (cd /usr; readlink /proc/self/cwd); cd /etc && readlink /proc/$$/cwd; awk \'{print $2, $3, ($4 == ppid)}\' ppid=$$ /proc/self/stat; grep PPid /proc/self/status | cut -f2 | grep -cx $$; [ "$(readlink /proc/self)" != $$ ] && echo own-pid');
    expect(r).toEqual({ stdout: '/tmp\n/usr\n/etc\n(awk) R 1\n1\nown-pid\n', stderr: '', exit: 0 });
  });
});
