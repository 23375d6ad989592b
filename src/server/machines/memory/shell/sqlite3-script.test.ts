import { describe, expect, it } from 'vitest';
import { crlfRecords, dotWords, scriptCommands, tableColumns } from './sqlite3-script.ts';

describe('sqlite3 scripts as the sqlite shell reads them', () => {
  it('a line starting with . is a dot-command only while no SQL statement is pending', () => {
    expect(scriptCommands('.headers on\nselect 1;\n.mode csv\nselect\n.5;\n')).toEqual([
      { dot: ['.headers', 'on'] },
      { sql: 'select 1;\n' },
      { dot: ['.mode', 'csv'] },
      { sql: 'select\n.5;\n' },
    ]);
  });

  it('blank and comment lines between statements do not hold a dot-command back', () => {
    expect(scriptCommands('-- make\ncreate table t(a); -- t\n\n-- rows\n.tables\n')).toEqual([{ sql: 'create table t(a); -- t\n' }, { dot: ['.tables'] }]);
  });

  it("dot-command words: blanks part them, '…' is literal, \"…\" resolves escapes", () => {
    expect(dotWords(`.separator "\\t" 'a b'  x`)).toEqual(['.separator', '\t', 'a b', 'x']);
  });

  it('.tables lays names out down then across in columns of the longest name, two blanks apart', () => {
    expect(tableColumns(['abcdef', 'u', 'vv'])).toBe('abcdef  u       vv    \n');
    expect(tableColumns(Array.from({ length: 12 }, (_, i) => `table_number_${i}`)).split('\n')[0]).toBe('table_number_0   table_number_3   table_number_6   table_number_9 ');
    expect(tableColumns([])).toBe('');
  });

  it('.mode csv ends records with CRLF, leaving newlines inside quoted fields', () => {
    expect(crlfRecords('a,"x\ny"\n1,2\n')).toBe('a,"x\ny"\r\n1,2\r\n');
  });
});
