import { describe, expect, it } from 'vitest';
import { parseScript } from './script-ast.ts';
import { openRegexGroupLine } from './regex-group-lines.ts';

const line = (script: string) => openRegexGroupLine(parseScript(script)!.statements);

describe('openRegexGroupLine', () => {
  it('finds the [[ =~ ]] whose regex leaves a group open, and only that', () => {
    expect(line('echo a\nif [[ $v =~ ^(a|b ]]; then :; fi')).toBe(2);
    expect(line('[[ x =~ ( ]]')).toBe(1);
    // Closed groups, quoted or escaped parentheses and other operators open nothing.
    expect(line('[[ x =~ (a|b) ]]; [[ x =~ "(" ]]; [[ x =~ \\( ]]; [[ x == ( ]]')).toBeNull();
  });
});
