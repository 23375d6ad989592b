import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';
import { parseDuration } from './duration.ts';

// GNU sleep's and timeout's durations (strtod, then one suffix), and sleep's usage errors, as coreutils 9.1 gives them.

describe('parseDuration', () => {
  it('reads what strtod reads, then s, m, h or d', () => {
    expect(['1e-2', '0.01s', '.5', ' 2', '+3', '1.5e1m', '0x1.8p1', '0X.8', '0.5h', '1d', '-0'].map(parseDuration)).toEqual([0.01, 0.01, 0.5, 2, 3, 900, 3, 0.5, 1800, 86400, 0]);
    expect(parseDuration('inf')).toBe(Infinity);
    expect(parseDuration('infinitys')).toBe(Infinity);
  });
  it('refuses a second letter, a comma, a bare 0x or exponent, a negative number and NaN', () => {
    expect(['1e', '1ss', '0,5', '0x', '0xp1', '-1', 'nan', '', '-', '1 ', 'x'].map(parseDuration)).toEqual(Array(11).fill(null));
  });
});

describe('sleep', () => {
  it('takes -- before its operands; any other -X is an invalid option; every bad operand is named, then one Try line', async () => {
    const r = await runShell('export LANG=C.UTF-8; sleep -- -1; echo "s=$?"; sleep -1; echo "s=$?"; sleep --nope; sleep 1e x; echo "s=$?"; sleep; echo "s=$?"');
    expect(r).toEqual({
      stdout: 's=1\ns=1\ns=1\ns=1\n',
      stderr:
        "sleep: invalid time interval ‘-1’\nTry 'sleep --help' for more information.\n" +
        "sleep: invalid option -- '1'\nTry 'sleep --help' for more information.\nsleep: unrecognized option '--nope'\nTry 'sleep --help' for more information.\n" +
        "sleep: invalid time interval ‘1e’\nsleep: invalid time interval ‘x’\nTry 'sleep --help' for more information.\nsleep: missing operand\nTry 'sleep --help' for more information.\n",
      exit: 0,
    });
  });
  // (A valid sleep waits on the engine's clock, which this runner's fake clock never moves: timeout ends it.)
  it('sleeps the sum of its operands; timeout reads its duration the same way', async () => {
    expect((await runShell('timeout 1e-1 sleep 1e-2m .5; echo "s=$?"; timeout 0x1p-3 sleep 5; echo "s=$?"; timeout inf true; echo "s=$?"')).stdout).toBe('s=124\ns=124\ns=0\n');
  });
});
