import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';

// Outputs as GNU bc 1.07.1's math library gives them (checked with `bc -l` on a GNU/Linux host).
describe('bc -l math library', () => {
  it('computes s c a l e j at scale 20, to the last digit bc prints', async () => {
    const r = await runShell("bc -l <<< 's(1); c(1); 4*a(1); e(1); l(10); j(1,2); sqrt(2)'");
    expect(r.stdout).toBe('.84147098480789650665\n.54030230586813971740\n3.14159265358979323844\n2.71828182845904523536\n2.30258509299404568401\n.57672480775687338720\n1.41421356237309504880\n');
    expect(r.exit).toBe(0);
  });
  it('follows the caller\'s scale, negative and large arguments, and a user definition that replaces one', async () => {
    const r = await runShell("echo 'scale=5; s(100); c(-3); e(-2.5); l(.001); j(-3,2.5); e(50)' | bc -l; echo 'scale=70; a(.2)' | bc -l; echo 'define s(x) { return x*2 }; s(4)' | bc -l");
    expect(r.stdout).toBe('-.50635\n-.98999\n.08208\n-6.90775\n-.21660\n5184705528587072464087.45332\n.1973955598498807583700497651947902934475851037878521015176889402410\\\n339\n8\n');
  });
  it('prints zero as 0 whatever its scale, and l() of a number not above 0 as 1-10^scale', async () => {
    const r = await runShell("echo 's(0); e(-50); l(0)' | bc -l; echo 'scale=3; 0/5; 1-1.000' | bc");
    expect(r.stdout).toBe('0\n0\n-99999999999999999999.00000000000000000000\n0\n0\n');
  });
  it('counts length() as GNU bc does: the scale alone when the integer part is 0', async () => {
    const r = await runShell("echo 'length(.05); length(0); length(100.00); length(0.00100); length(-12.5)' | bc");
    expect(r.stdout).toBe('2\n1\n5\n5\n3\n');
  });
});
