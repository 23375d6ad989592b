import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';

// bash's printf builtin (and echo's options) through the engine; each expectation is what bash 5.2 prints in the
// C.UTF-8 locale for the same script.

const out = async (script: string) => (await runShell(script)).stdout;

describe('printf conversions', () => {
  it('rounds floating point as glibc prints a long double: exact value, ties to even', async () => {
    expect(await out("printf '%.*f|%*.*f\\n' 2 3.14159 8 1 2.25")).toBe('3.14|     2.2\n');
    expect(await out("printf '%.1f %.1f %.1f %.2f %.0f %.0f %.0f\\n' 0.25 0.35 0.45 1.005 0.5 1.5 2.5")).toBe('0.2 0.3 0.4 1.00 0 2 2\n');
    expect(await out("printf '%e %E %g %G %a %.15g\\n' 1234.5 0.000123 1234567 0.0000123 1 0.1")).toBe('1.234500e+03 1.230000E-04 1.23457e+06 1.23E-05 0x8p-3 0.1\n');
    expect(await out("printf '%#g %g %.0e %#.0f %f %e\\n' 1 100000 12345 1 -inf 1e400")).toBe('1.00000 100000 1e+04 1. -inf 1.000000e+400\n');
  });

  it('integers: unsigned conversions of negatives are 64-bit, out-of-range values warn and clamp', async () => {
    expect(await out("printf '%u %i %x %o %#x %#o\\n' -1 -1 -1 -8 255 8")).toBe('18446744073709551615 -1 ffffffffffffffff 1777777777777777777770 0xff 010\n');
    expect(await runShell("printf '%d\\n' 99999999999999999999 -0x10 \"'é\"")).toEqual({
      stdout: '9223372036854775807\n-16\n233\n',
      stderr: 'bash: line 1: printf: warning: 99999999999999999999: Numerical result out of range\n',
      exit: 0,
    });
  });

  it('a number that does not parse: message first, the value read so far printed, status 1', async () => {
    expect(await out('exec 2>&1; printf \'%d %d\\n\' 12abc 3; echo "status=$?"')).toBe('bash: line 1: printf: 12abc: invalid number\n12 3\nstatus=1\n');
    expect(await out('exec 2>&1; printf \'%d|%f\\n\' 09 1.5x 0x q; echo "status=$?"')).toBe(
      'bash: line 1: printf: 09: invalid octal number\nbash: line 1: printf: 1.5x: invalid number\n0|1.500000\nbash: line 1: printf: 0x: invalid hex number\nbash: line 1: printf: q: invalid number\n0|0.000000\nstatus=1\n',
    );
    // Output is flushed after each pass over the format.
    expect(await out('exec 2>&1; printf \'x%d\\n\' 1 abc')).toBe('x1\nbash: line 1: printf: abc: invalid number\nx0\n');
  });

  it('a conversion character bash does not know ends printf with status 1; length modifiers are skipped', async () => {
    expect(await out('exec 2>&1; printf \'%z\\n\' x; echo "status=$?"')).toBe("bash: line 1: printf: `\\': invalid format character\nstatus=1\n");
    expect(await out('exec 2>&1; printf \'ab%5%cd\\n\'; echo; printf \'%ld %hhd %5\'; echo " s=$?"')).toBe(
      "bash: line 1: printf: `%': invalid format character\nab\nbash: line 1: printf: `%5': missing format character\n0 0  s=1\n",
    );
  });

  it('characters and strings count bytes; %c of an empty argument is a NUL', async () => {
    expect(await out("printf '%5.1s|%-4c|%3c|%c|' abc xyz é '' | od -An -c")).toBe('                   a   |   x               |         303   |  \\0\n   |\n');
  });

  it('%q quotes as bash reuses it, %Q quotes after the precision, %b expands escapes and stops at \\c', async () => {
    expect(await out("printf '%q\\n' $'a\\nb' '~x' 'a=b' 'a,b' '#c' 'x#y' '' é")).toBe("$'a\\nb'\n\\~x\na=b\na\\,b\n\\#c\nx#y\n''\né\n");
    expect(await out("printf '%.3Q|%5q|\\n' 'a b c' ab")).toBe('a\\ b|   ab|\n');
    expect(await out("printf '%b\\n' '\\x41\\e[0m\\0101\\101' | od -An -c | tr -s ' '")).toBe(' A 033 [ 0 m A A \\n\n');
    expect(await out("printf '%b|' 'a\\cb' c; echo; printf 'x\\cy\\n'")).toBe('a\nx\\cy\n');
  });

  it('time conversions, -v and usage', async () => {
    expect(await out("TZ=UTC printf '%(%Y-%m-%d)T|%10(%H)T|\\n' 86400 0")).toBe('1970-01-02|        00|\n');
    expect(await out("printf -v v '%d-%s\\n' 1 a 2 b; printf '%s' \"$v\"; printf -vw '%q' 'a b'; echo \"$w\"")).toBe('1-a\n2-b\na\\ b\n');
    expect(await runShell('printf; echo "status=$?"')).toEqual({ stdout: 'status=2\n', stderr: 'printf: usage: printf [-v var] format [arguments]\n', exit: 0 });
  });
});

describe('echo options', () => {
  it('combine in one word, and the last of -e and -E wins', async () => {
    expect(await out("echo -neE 'x\\ty'; echo; echo -Ee 'a\\tb'; echo -eE 'a\\tb'; echo -enx a")).toBe('x\\ty\na\tb\na\\tb\n-enx a\n');
  });
});

describe('the printf program (env printf, xargs printf, /usr/bin/printf)', () => {
  it('takes no option but a first --, and words its errors as GNU coreutils printf', async () => {
    const r = await runShell("export LANG=C.UTF-8; env printf -v x a; echo \" $?\"; env printf '%d|' abc 1x 7; echo \" $?\"; env printf 'a\\n' b; env printf '%q\\n' 'a b'; env printf '%(%Y)T' 0; echo \" $?\"; env printf; echo \" $?\"");
    expect(r).toEqual({
      stdout: "-v 0\n0|1|7| 1\na\n'a b'\n 1\n 1\n",
      stderr:
        'printf: warning: ignoring excess arguments, starting with ‘x’\nprintf: ‘abc’: expected a numeric value\nprintf: ‘1x’: value not completely converted\n' +
        "printf: warning: ignoring excess arguments, starting with ‘b’\nprintf: %(: invalid conversion specification\nprintf: missing operand\nTry 'printf --help' for more information.\n",
      exit: 0,
    });
  });
});
