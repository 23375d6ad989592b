import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';

// What real bash prints for ANSI-C quoted words holding a newline, wherever the shell engine rewrites the script.

describe('$\'…\' words with \\n', () => {
  it('keep their newlines as arguments, assignments, here-strings and case patterns', async () => {
    const r = await runShell("echo $'a\\nb'; x=$'c\\nd'; echo \"$x\"; sort <<< $'z\\ny'; case $'p\\nq' in $'p\\nq') echo m;; esac");
    expect(r).toEqual({ stdout: 'a\nb\nc\nd\ny\nz\nm\n', stderr: '', exit: 0 });
  });
});
