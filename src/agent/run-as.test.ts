/**
 * The supervisor starting processes through the run-as helper (native/runas.c), as the agent does inside a sprite:
 * an exec session's process is the sprite user (with its supplementary groups) holding CAP_CHOWN, CAP_DAC_OVERRIDE, CAP_FOWNER and CAP_FSETID as
 * ambient capabilities, a service's holds none; a failed exec is reported as node reports one; output of a process
 * that ends before its start is known is kept; the helper's status pipe does not reach the program. Needs root
 * (the ids change) and a C compiler.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { Supervisor } from './supervisor.ts';
import { EXEC_CAPS, runAsHelper } from '../server/machines/agent/native.ts';
import type { SpawnMessage } from '../protocol/agent.ts';
import { SPRITE_GID, SPRITE_PROCESS_GROUPS, SPRITE_UID } from '../protocol/sprite-tree.ts';

const ROOT = process.platform === 'linux' && process.getuid?.() === 0;
if (!ROOT) console.warn('run-as tests skipped: they need Linux and root');

let helper: string;
beforeAll(async () => {
  if (ROOT) helper = await runAsHelper();
}, 120_000);

interface Outcome {
  out: string;
  started: boolean;
  code: number;
}

/** Starts every message on one supervisor (with the helper) and resolves with each one's output, start and exit. */
function runAll(msgs: Array<Partial<SpawnMessage>>): Promise<Outcome[]> {
  const results = msgs.map((): Outcome => ({ out: '', started: false, code: -1 }));
  return new Promise((resolve) => {
    let left = msgs.length;
    const sup = new Supervisor(
      {
        stdout: (id, d) => void (results[id]!.out += d.toString()),
        stderr: (id, d) => void (results[id]!.out += `E:${d.toString()}`),
        started: (id) => void (results[id]!.started = true),
        exit: (id, code) => {
          results[id]!.code = code;
          if (--left === 0) resolve(results);
        },
      },
      { root: '', dropPrivileges: true, runAs: helper, exitDrainMs: 100, sweepNamespace: false, logOwner: null },
    );
    msgs.forEach((m, id) => sup.spawn(id, { argv: ['true'], env: { PATH: '/usr/bin:/bin' }, dir: '/tmp', tty: false, rows: 24, cols: 80, uid: SPRITE_UID, gid: SPRITE_GID, groups: [...SPRITE_PROCESS_GROUPS], stdin: false, ...m }));
  });
}

const caps = (pid = 'self') => `grep -E '^Cap(Eff|Amb):' /proc/${pid}/status`;

describe.skipIf(!ROOT)('processes started through the run-as helper', { timeout: 30_000 }, () => {
  it('an exec session holds the four file capabilities (effective, ambient, kept by what it execs); a service holds none', async () => {
    const [exec, service] = await runAll([
      { argv: ['sh', '-c', `id -u; id -g; ${caps()}; sh -c "${caps()}"`], caps: [...EXEC_CAPS] },
      { argv: ['sh', '-c', `id -u; ${caps()}`] },
    ]);
    expect(exec).toEqual({ out: '1001\n1001\nCapEff:\t000000000000001b\nCapAmb:\t000000000000001b\nCapEff:\t000000000000001b\nCapAmb:\t000000000000001b\n', started: true, code: 0 });
    expect(service).toEqual({ out: '1001\nCapEff:\t0000000000000000\nCapAmb:\t0000000000000000\n', started: true, code: 0 });
  });

  it('a process holds exactly the supplementary groups it was given (the sprite user\'s 27 and 100), none when given none', async () => {
    const [exec, tty, none] = await runAll([
      { argv: ['sh', '-c', 'id -u; id -g; id -G; grep ^Groups: /proc/self/status'], caps: [...EXEC_CAPS] },
      { argv: ['sh', '-c', 'id -G'], tty: true },
      { argv: ['sh', '-c', 'id -G'], groups: undefined },
    ]);
    expect(exec!.out).toBe('1001\n1001\n1001 27 100\nGroups:\t27 100 \n');
    expect(tty!.out).toBe('1001 27 100\r\n');
    expect(none!.out).toBe('1001\n');
  });

  it('a terminal process holds them too, and gets the argv[0] it was given', async () => {
    const [tty] = await runAll([{ argv: ['my-shell', '-c', `echo "$0"; ${caps()}`], path: '/bin/sh', tty: true, caps: [...EXEC_CAPS] }]);
    expect(tty!.out).toBe('my-shell\r\nCapEff:\t000000000000001b\r\nCapAmb:\t000000000000001b\r\n');
  });

  it('keeps the output of processes that end before their start is known, many at once', async () => {
    const many = await runAll(Array.from({ length: 12 }, (_, i) => ({ argv: ['echo', `line ${i}`], caps: [...EXEC_CAPS] })));
    expect(many.map((r) => r.out)).toEqual(Array.from({ length: 12 }, (_, i) => `line ${i}\n`));
    expect(many.every((r) => r.started && r.code === 0)).toBe(true);
  });

  it('a program that is missing exits 127, one that cannot run 126, each in os/exec words and without a start', async () => {
    const [missing, denied] = await runAll([{ argv: ['no-such-program'] }, { argv: ['/etc/passwd'], caps: [...EXEC_CAPS] }]);
    expect(missing).toEqual({ out: 'E:exec: "no-such-program": executable file not found in $PATH\n', started: false, code: 127 });
    expect(denied).toEqual({ out: 'E:exec: "/etc/passwd": permission denied\n', started: false, code: 126 });
  });

  it('the helper status descriptor does not reach the program', async () => {
    const [r] = await runAll([{ argv: ['sh', '-c', `test -e /proc/$$/fd/3 && echo open || echo closed`], caps: [...EXEC_CAPS] }]);
    expect(r!.out).toBe('closed\n');
  });

  it('the helper gives no capability but the four (CAP_KILL, CAP_SYS_ADMIN refused) and checks its arguments (GROUPS too)', () => {
    for (const bad of ['CAP_KILL', 'CAP_CHOWN,CAP_SYS_ADMIN', '', 'cap_chown']) {
      const r = spawnSync(helper, ['1001', '1001', '-', bad, '-1', 'true', 'true'], { encoding: 'utf8' });
      expect([r.status, r.stderr]).toEqual([126, expect.stringMatching(/^spritzer-runas: /)]);
    }
    for (const groups of ['', 'x', '27,', ',27', '27,,100', ' 27', '-1', '27;100', Array.from({ length: 65 }, (_, i) => i + 1).join(',')]) {
      const r = spawnSync(helper, ['1001', '1001', groups, '-', '-1', 'true', 'true'], { encoding: 'utf8' });
      expect([groups, r.status, r.stderr]).toEqual([groups, 126, expect.stringMatching(/^spritzer-runas: /)]);
    }
    expect(spawnSync(helper, ['x', '1001', '-', '-', '-1', 'true', 'true']).status).toBe(126);
    expect(execFileSync(helper, ['1001', '1001', '27,100', 'CAP_CHOWN,CAP_FSETID', '-1', 'sh', 'sh', '-c', `${caps()}; id -G`], { encoding: 'utf8' })).toBe('CapEff:\t0000000000000011\nCapAmb:\t0000000000000011\n1001 27 100\n');
  });
});
