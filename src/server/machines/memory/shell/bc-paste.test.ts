import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';

// Outputs as GNU bc 1.07 and coreutils 9 paste give them (checked with bash on a GNU/Linux host).
describe('bc', () => {
  it('reads whole numbers in ibase and prints them in obase, as GNU bc does; a fraction in another base is loud', async () => {
    const r = await runShell("echo 'obase=16; 255; -255; obase=2; 10' | bc; echo 'ibase=16; FF; 1F; obase=A; FF' | bc; echo 'ibase=10; 1F; obase=100; 12345' | bc; echo 'obase=16; 1.5' | bc");
    expect(r).toEqual({
      stdout: 'FF\n-FF\n1010\n255\n31\n255\n19\n 01 23 45\n',
      stderr: 'bc: a fraction printed with obase=16 is not available in the shell engine; run spritzer with --exec sandbox\n',
      exit: 2,
    });
  });
  it('computes with scale as bc does and prints its number forms', async () => {
    const r = await runShell("echo 'scale=3; 10/3' | bc; echo '2^64' | bc; echo 'sqrt(16)' | bc -l; printf '0.5*1\\n-1/4\\nscale=3; 7%%3\\n' | bc; echo 'scale=2; 2^-1' | bc");
    expect(r.stdout).toBe('3.333\n18446744073709551616\n4.00000000000000000000\n.5\n0\n.001\n.50\n');
  });
  it('runs loops, functions and print, and cuts long numbers at 70 columns', async () => {
    const r = await runShell("echo 'for (i=0;i<3;i++) i' | bc; echo 'define f(x) { return x*2 }; f(4)' | bc; echo 'print 1, \"a\", 2, \"\\n\"' | bc; echo '2^300' | bc");
    expect(r.stdout).toBe('0\n1\n2\n8\n1a2\n20370359763344860862684456884093781610514683936659362506361404493543\\\n81299763336706183397376\n');
  });
  it('reports syntax errors and division by zero on stderr and goes on', async () => {
    const r = await runShell("echo '1 +' | bc; printf '1/0\\n5\\n' | bc");
    expect(r.stdout).toBe('5\n');
    expect(r.stderr).toMatch(/^\(standard_in\) 2: syntax error\nRuntime error \(func=\(main\), adr=\d+\): Divide by zero\n$/);
  });
});

describe('paste', () => {
  it('reads stdin without operands, and -d escapes', async () => {
    const r = await runShell("printf '%s\\n' 3 1 2 | paste -sd+ | bc; paste -d'\\n' <(echo a) <(echo b); printf '3\\n1\\n' > n; paste -d '\\0' n n; paste - - < n");
    expect(r.stdout).toBe('6\na\nb\n33\n11\n3\t1\n');
  });
});
