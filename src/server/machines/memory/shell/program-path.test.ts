import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';

// GNU coreutils 9, findutils 4.9 and bash 5.2 on a sprite: each expected output is what they printed on a real machine.

describe('a command that runs a program', () => {
  it('runs the pwd program (physical), never bash\'s builtin: env, xargs, nice, nohup, timeout, sudo', async () => {
    const r = await runShell('mkdir real; ln -s real lnk; cd lnk; pwd; env pwd; xargs pwd </dev/null; nice pwd; nohup pwd 2>/dev/null; timeout 5 pwd; sudo pwd');
    expect(r.stdout).toBe(`/home/sprite/lnk\n${'/home/sprite/real\n'.repeat(6)}`);
  });
  it('leaves a name that is not a builtin for the shell to look up', async () => {
    expect(await runShell('env ls -d /; xargs echo a <<< b; env echo hi')).toEqual({ stdout: '/\na b\nhi\n', stderr: '', exit: 0 });
  });
});
