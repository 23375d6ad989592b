import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';
import { emacsToBasic } from './tac-command.ts';

// GNU tac's records, separators and messages, as coreutils 9 prints them.
describe('tac', () => {
  it('keeps a last record without its separator as it is', async () => {
    expect((await runShell("printf 'a\\nb\\nc' | tac")).stdout).toBe('cb\na\n');
  });

  it('splits on a -s string, after each record or (-b) before it', async () => {
    const r = await runShell("printf 'a,b,c,' | tac -s ,; echo; printf 'a,b,c,' | tac -b -s ,; echo; printf 'one--two--' | tac --separator=--; echo; printf 'a\\nb\\n' | tac -s ''");
    expect(r).toEqual({ stdout: 'c,b,a,\n,,c,ba\ntwo--one--\na\nb\n', stderr: '', exit: 0 });
  });

  it('takes -r separators in GNU regex default syntax, searching back from the end', async () => {
    const r = await runShell("printf 'x1y22z333' | tac -r -s '[0-9]+'; echo; printf 'x1y22' | tac -r -s '[0-9]\\+'; echo; printf 'a.b.c.' | tac -r -s .; echo; printf 'l1\\nl2\\nl3\\n' | tac -r -s '^l'");
    expect(r).toEqual({ stdout: '33z32y2x1\nx1y22\n.c.b.a\n3\n2\nl1\nll', stderr: '', exit: 0 });
  });

  it('reports a missing file, a directory and an empty regex separator', async () => {
    const r = await runShell('mkdir d; echo a > f; ln -s loop loop; tac nope f; echo "s=$?"; tac d; echo "s=$?"; tac -r -s "" f; echo "s=$?"; tac loop; echo "s=$?"');
    expect(r.stdout).toBe('a\ns=1\ns=1\ns=1\ns=1\n');
    expect(r.stderr).toBe("tac: failed to open 'nope' for reading: No such file or directory\ntac: d: read error: Invalid argument\ntac: separator cannot be empty\ntac: failed to open 'loop' for reading: Too many levels of symbolic links\n");
  });

  it('rewrites operators and literals of the default syntax as a BRE', () => {
    expect(emacsToBasic('[0-9]+a?\\+\\{x\\}[+?]')).toBe('[0-9]\\+a\\?+{x}[+?]');
  });
});
