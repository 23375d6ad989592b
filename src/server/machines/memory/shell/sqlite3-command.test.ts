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

describe('sqlite3 runs every command it is given, its common dot-commands too', () => {
  it('several SQL arguments run in order; no database is an in-memory one, stdin its script', async () => {
    const r = await runShell(`sqlite3 :memory: 'select 1;' 'select 2 -- two' "select 'x'"; echo 'select 3;' | sqlite3; sqlite3 :memory: 'select * from nosuch' 'select 4'; echo "rc=$?"`);
    expect(r).toEqual({ stdout: '1\n2\nx\n3\nrc=1\n', stderr: 'Error: no such table: nosuch\n', exit: 0 });
  }, 60_000);

  it('.tables, .schema, .headers, .mode, .separator, .nullvalue and .quit, as arguments and on stdin; others are refused loudly', async () => {
    const r = await runShell(
      [
        `sqlite3 t.db 'create table u(x, y); create table vv(a); create index ix on u(x); insert into u values (1, "a"), (2, NULL);'`,
        `sqlite3 t.db .tables '.schema u' '.headers on' '.mode csv' 'select * from u' '.mode line' 'select * from u' '.quit' 'select 9'`,
        `printf '.separator , X\\n\n.nullvalue N\nselect * from u;\n.mode list\nselect 1, 2;\n.dump\nselect 3;\n' | sqlite3 t.db; echo "rc=$?"`,
      ].join('\n'),
    );
    expect(r.stdout).toBe('u   vv\nCREATE TABLE u(x, y);\nCREATE INDEX ix on u(x);\nx,y\r\n1,a\r\n2,\r\n    x = 1\n    y = a\n\n    x = 2\n    y = \n1,aX2,NX1|2\nrc=1\n');
    expect(r.stderr).toBe('sqlite3: .dump is not available in the shell engine; run spritzer with --exec sandbox\n');
  }, 60_000);
});

describe('sqlite3 opens its database file as sqlite does', () => {
  it('a missing file is created empty on opening; a missing directory is an error', async () => {
    const r = await runShell(`sqlite3 new.db .tables; sqlite3 n2.db 'select 1'; wc -c < new.db; wc -c < n2.db; sqlite3 nodir/x.db 'select 1'; echo "rc=$?"; ls nodir 2>/dev/null | wc -l`);
    expect(r).toEqual({ stdout: '1\n0\n0\nrc=1\n0\n', stderr: 'Error: unable to open database "nodir/x.db": unable to open database file\n', exit: 0 });
  }, 60_000);
});

