import { describe, expect, it } from 'vitest';
import { runShell, testSprite } from '../../../../../test/support/shell-run.ts';

// The bash language as bash's manual gives it, where just-bash needed a patch (patches/just-bash/): each case is what
// real bash prints for the same script.

const tree = async () => {
  const ctx = testSprite();
  await runShell('mkdir -p w/docs w/src/lib "w/sp ace" && cd w && echo a > a.txt && echo b > src/main.py && ln -s docs dlink && ln -s a.txt flink', ctx);
  return ctx;
};

describe('pathname expansion', () => {
  it('a pattern ending in / matches directories and links to them, each with its slash', async () => {
    const ctx = await tree();
    expect(await runShell('cd w && echo */; ls -d */; for d in s*/; do echo "[$d]"; done; echo src/*/', ctx)).toEqual({
      stdout: 'dlink/ docs/ sp ace/ src/\ndlink/\ndocs/\nsp ace/\nsrc/\n[sp ace/]\n[src/]\nsrc/lib/\n',
      stderr: '',
      exit: 0,
    });
    // No directory matches: the word stays as written, as with any other pattern.
    expect((await runShell('cd w/src/lib && echo */', ctx)).stdout).toBe('*/\n');
  });
});
