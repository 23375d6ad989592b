/**
 * File times keep Linux's nanoseconds on the shell engine: a time set with nine digits reads back with them from
 * every command that prints or copies a time, a symlink's own time is set with `touch -h`, and the clock's own
 * stamps have nine plausible digits. Expected outputs are GNU coreutils' and findutils' on Linux.
 */
import { describe, expect, it } from 'vitest';
import { engineBash } from '../../../../../test/support/host-bash.ts';
import { compareTimes, fileTime, fromEpochNanos, secondsText } from './file-time.ts';

describe('file times with nanoseconds', () => {
  it.each([
    ["touch -d '@1.123456789' f; stat -c '%Y %.9Y %y' f", '1 1.123456789 1970-01-01 00:00:01.123456789 +0000\n'],
    ["touch -d '@1.123456789' f; date -r f +%s.%N; find f -printf '%T@ %TS\\n'", '1.123456789\n1.1234567890 01.1234567890\n'],
    ["touch -d '2020-01-02 03:04:05.987654321' f; ls --full-time f | awk '{print $6, $7}'", '2020-01-02 03:04:05.987654321\n'],
    ["touch -d '2020-01-02 03:04:05.5' f; stat -c '%.9Y %.3Y %.Y' f", '1577934245.500000000 1577934245.500 1577934245.500000000\n'],
    ["touch -d '@1577934245.1234567891' f; stat -c '%.9Y' f", '1577934245.123456789\n'],
    ["touch -d '@-1.25' f; stat -c '%Y %.9Y' f", '-2 -1.250000000\n'],
    ["touch -d '@1577934245.123456789' f; touch -r f g; cp -p f h; cp -a f i; mv f j; stat -c '%.9Y' g h i j", '1577934245.123456789\n'.repeat(4)],
    ["touch -d '@5.000000001' f; touch -d '@5.000000002' g; [ g -nt f ] && echo newer; [ f -ot g ] && echo older; find . -newer f -name g", 'newer\nolder\n./g\n'],
    ["touch -d '@1000' a; ln -s a l; touch -h -d '@2000' l; stat -c %Y a l", '1000\n2000\n'],
  ])('%s', async (script, stdout) => {
    expect(await engineBash(script)).toEqual({ stdout, stderr: '', exit: 0 });
  });

  it('gives a time the clock stamps nine digits of nanoseconds', async () => {
    const r = await engineBash("touch f; stat -c '%.9Y' f; date -r f +%N");
    expect(r.stdout).toMatch(/^\d+\.\d{9}\n\d{9}\n$/);
    expect(r.stdout.split('\n')[0]!.slice(-9)).toBe(r.stdout.split('\n')[1]);
  });

  it('orders and prints epoch nanoseconds exactly', () => {
    expect(compareTimes(fileTime(5, 1), fileTime(5, 2))).toBe(-1);
    expect(secondsText(fromEpochNanos(-1_250_000_000n), 9)).toBe('-1.250000000');
    expect(secondsText(fromEpochNanos(1_577_934_245_123_456_789n), 3)).toBe('1577934245.123');
  });
});
