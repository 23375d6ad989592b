import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';
import { oneDashOptions } from './sqlite3-command.ts';

describe('sqlite3 takes --opt as -opt, as the sqlite shell does', () => {
  it('rewrites options before a bare --, never operands or what follows --', () => {
    expect(oneDashOptions(['--json', 'db', '--header', 'select 1', '--', '--x', '-'])).toEqual(['-json', 'db', '-header', 'select 1', '--', '--x', '-']);
  });

  it('--version prints the library version, source id and word size; --header --csv and --json format the rows', async () => {
    const r = await runShell(`sqlite3 --version; sqlite3 --header --csv :memory: 'select 1 as a, 2 as b'; sqlite3 --json :memory: 'select "x" as k'`);
    expect(r.stdout).toMatch(/^3\.\d+\.\d+ \d{4}-\d\d-\d\d \d\d:\d\d:\d\d [0-9a-f]{64} \(64-bit\)\na,b\n1,2\n\[\{"k":"x"\}\]\n$/);
    expect(r.stderr).toBe('');
  }, 60_000);
});
