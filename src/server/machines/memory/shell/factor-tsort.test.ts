import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';

// Outputs as GNU coreutils 9 gives them (checked with bash on a GNU/Linux host).
describe('factor', () => {
  it('factors operands and stdin words, up to 2^64', async () => {
    const r = await runShell("factor 12 97 1 18446744073709551615; echo '6 7' | factor; factor abc; echo \"s=$?\"");
    expect(r).toEqual({ stdout: '12: 2 2 3\n97: 97\n1:\n18446744073709551615: 3 5 17 257 641 65537 6700417\n6: 2 3\n7: 7\ns=1\n', stderr: 'factor: ‘abc’ is not a valid positive integer\n', exit: 0 });
  });
});

describe('tsort', () => {
  it("orders as GNU's algorithm, and reports odd input and loops", async () => {
    const r = await runShell("printf 'x a\\nx b\\nb a\\nc d\\n' | tsort | tr '\\n' ' '; printf '%s\\n' b a c | tsort; printf 'a b\\nb a\\n' | tsort; echo \"s=$?\"");
    expect(r).toEqual({ stdout: 'c x d b a a\nb\ns=1\n', stderr: 'tsort: -: input contains an odd number of tokens\ntsort: -: input contains a loop:\ntsort: a\ntsort: b\n', exit: 0 });
  });
});

describe('factor options', () => {
  it('takes a word starting with - as an option, as getopt does: an unknown one is rejected (status 1)', async () => {
    const r = await runShell('factor -h 72; echo "s=$?"; factor -- 12');
    expect(r.stdout).toBe('s=1\n12: 2 2 3\n');
    expect(r.stderr).toBe("factor: invalid option -- 'h'\nTry 'factor --help' for more information.\n");
  });
});
