import { describe, expect, it } from 'vitest';
import { runShellWith } from '../../../../../test/support/shell-run.ts';
import { YES_LIMIT_BYTES } from './coreutils-extra.ts';

// yes and cat of /dev/zero write without end: into a pipe they stop when the reader does (SIGPIPE), into anything else
// only a signal stops them (patches/just-bash/with-stdout-pipe-known.mjs tells a command where its stdout goes).
// The exec's own limit is far above what the scripts take, so a loaded machine never mistakes slowness for a writer
// that did not stop (which would run into it: status 124).
const limits = { maxCommands: 100_000, timeoutMs: 30_000 };

describe('endless writers', () => {
  it('run until timeout ends them when they write to a file, /dev/null or the terminal (status 124)', async () => {
    const r = await runShellWith(
      "timeout 0.1 cat /dev/zero >/dev/null; echo $?; timeout 0.1 cat < /dev/zero > f; echo $?; timeout 0.1 yes > f; echo $?; timeout 0.1 sh -c 'yes > /dev/null'; echo $?; timeout 0.1 bash -c 'cat - </dev/urandom' > f; echo $?",
      { limits },
    );
    expect(r).toEqual({ stdout: '124\n124\n124\n124\n124\n', stderr: '', exit: 0 });
  });
  it('stop at their reader into a pipe, in a stage, a group, a function or a child shell', async () => {
    const r = await runShellWith(
      "yes | head -1; { yes; } | head -1; f() { yes a; }; f | head -1; sh -c yes | head -1; bash -c 'cat /dev/zero' | head -c 2 | od -An -tx1; cat < /dev/zero | head -c 1 | wc -c; timeout 1 yes | head -1; echo ${PIPESTATUS[*]}; sh -c 'echo hi | cat' < /dev/zero",
      { limits },
    );
    expect(r).toEqual({ stdout: 'y\ny\na\ny\n 00 00\n1\ny\n141 0\nhi\n', stderr: '', exit: 0 });
  }, 60_000);
  it('stop at their reader in an input process substitution and a coprocess, and under env, nice or command', async () => {
    const r = await runShellWith('head -1 <(yes); read x < <(yes n); echo $x; coproc yes; read -r l <&"${COPROC[0]}"; echo $l; env yes a | head -1; nice yes b | head -1; command yes c | head -1', { limits });
    expect(r).toEqual({ stdout: 'y\nn\ny\na\nb\nc\n', stderr: '', exit: 0 });
  }, 60_000);
  it('write a bounded amount to the exec\'s own output first, and nothing to a file', async () => {
    const r = await runShellWith("timeout 0.1 yes; echo \" $?\"; timeout 0.1 sh -c 'cat /dev/zero > f'; wc -c < f", { limits });
    expect(r.stdout).toBe(`${'y\n'.repeat(YES_LIMIT_BYTES / 2)} 124\n0\n`);
  });
  it('end at the exec\'s own time limit when nothing else stops them', async () => {
    const r = await runShellWith('cat /dev/zero', { limits: { maxCommands: 1000, timeoutMs: 200 } });
    expect(r.exit).toBe(124);
    expect(r.stderr).toMatch(/--shell-timeout/);
  });
  it('end when the exec is signalled', async () => {
    const r = await runShellWith('yes > /dev/null', { limits, onStart: (p) => setTimeout(() => p.signal('TERM'), 50) });
    expect(r.exit).toBe(143);
  });
});
