import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';
import { engineBash, hostBashCapable, hostHas } from '../../../../../test/support/host-bash.ts';

// Outputs as GNU sort (coreutils 8.32/9) prints them in the C locale (checked with bash on a GNU/Linux host).

describe('sort orderings', () => {
  it('orders bytes in the C locale', async () => {
    expect((await runShell("sort <<< $'B\\na\\nA\\nb' | tr '\\n' ' '; printf 'hello world\\nfoo bar\\nHello again\\n' | sort -r")).stdout).toBe('A B a b hello world\nfoo bar\nHello again\n');
  });
  it('sorts versions, human sizes, months, numbers, dictionary order and general numbers', async () => {
    const r = await runShell("sort -V <<< $'v1.10\\nv1.2\\nv1.9'; sort -h <<< $'10K\\n2M\\n1G\\n5'; sort -M <<< $'Mar\\nJan\\nFeb'; sort -n <<< $'-1\\n-10\\n2'; sort -d <<< $'b-2\\na_1\\nc'; sort -g <<< $'1e3\\nx\\n-inf\\nnan\\n5'");
    expect(r.stdout).toBe('v1.2\nv1.9\nv1.10\n5\n10K\n2M\n1G\nJan\nFeb\nMar\n-10\n-1\n2\na_1\nb-2\nc\nx\nnan\n-inf\n5\n1e3\n');
  });
  it('sorts by keys and characters of fields, stably with -s', async () => {
    const r = await runShell("sort -k 1.2,1.3 <<< $'xb\\nya\\nzc'; sort -t: -k2 <<< $'a:2\\nb:10\\nc:1'; sort -t: -k2n <<< $'a:2\\nb:10\\nc:1'; sort -s -k1,1 <<< $'b 1\\na 2\\nb 0'; sort -b <<< $'  b\\na'; sort -t: -k1,1 <<< $'b:1\\nB:2\\na:3'");
    expect(r.stdout).toBe('ya\nxb\nzc\nc:1\nb:10\na:2\nc:1\na:2\nb:10\na 2\nb 1\nb 0\na\n  b\nB:2\na:3\nb:1\n');
  });
});

describe('sort modes', () => {
  it('checks order (-c, -C), merges, keeps unique keys, writes -o over its input', async () => {
    const r = await runShell("printf '3\\n1\\n' > n; sort -C n; echo $?; sort -c n; echo $?; sort -m <(printf '1\\n3\\n') <(printf '2\\n4\\n'); sort -fu <<< $'B\\nb\\na'; sort -u <<< $'b\\na\\nb'; sort -o n n; cat n");
    expect(r).toEqual({ stdout: '1\n1\n1\n2\n3\n4\na\nB\na\nb\n1\n3\n', stderr: 'sort: n:2: disorder: 1\n', exit: 0 });
  });
  it('fails with 2 on a missing file', async () => {
    expect(await runShell('sort nope')).toEqual({ stdout: '', stderr: 'sort: cannot read: nope: No such file or directory\n', exit: 2 });
  });
});

describe.runIf(process.getuid?.() === 0 && hostHas('setpriv'))('sort checks its inputs with euidaccess, as GNU sort does', () => {
  // access(2)'s real ids: an exec session's CAP_DAC_OVERRIDE does not count (cat reads the file, sort refuses it).
  it.each([
    'echo hi > a; chmod 000 a; cat a; sort a; echo "s=$?"; sort -c a; echo "c=$?"',
    'echo 2 > n; echo hi > a; chmod 000 a; sort -o out n a; echo "s=$?"; ls out; sort -m n a; echo "m=$?"',
    'mkdir d; echo y > d/f; chmod 100 d; sort d/f; echo "s=$?"; chmod 000 d; sort d/f; echo "s=$?"; chmod 700 d',
    'printf "3\\n1\\n" > n; exec 5<n; sort -n /dev/fd/5; sort <(echo b; echo a) /dev/null; echo "s=$?"',
  ])('%s', async (script) => {
    expect(await engineBash(script)).toEqual(hostBashCapable(script));
  });
});
