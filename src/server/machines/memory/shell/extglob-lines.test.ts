import { describe, expect, it } from 'vitest';
import { parseScript } from './script-ast.ts';
import { extglobErrorLine } from './extglob-lines.ts';

const lineOf = (script: string, on = false) => extglobErrorLine(script, parseScript(script)!.statements, on);

// Each expectation is where real bash 5.2 (`bash -c SCRIPT`) reports `syntax error near unexpected token `('`.
describe('extglobErrorLine', () => {
  it('an extended pattern is an error until a line after the one that enables extglob', () => {
    expect(lineOf('echo @(a|b)')).toBe(1);
    expect(lineOf('shopt -s extglob; echo @(a|b)')).toBe(1);
    expect(lineOf('shopt -s extglob\necho @(a|b)')).toBeNull();
    expect(lineOf('echo a\nx=+(a)')).toBe(2);
    expect(lineOf('f() { echo @(a); }')).toBe(1);
    expect(lineOf('if true; then shopt -s extglob; fi\necho @(a)')).toBeNull();
    expect(lineOf('shopt -s extglob\nshopt -u extglob\necho ?(a)')).toBe(3);
    expect(lineOf('case x in\n  *.@(a|b)) ;;\nesac')).toBe(2);
  });

  it('[[ ]] patterns, quoted text and a shell started with extglob on are fine', () => {
    expect(lineOf('[[ ab == @(a|ab) ]]')).toBeNull();
    expect(lineOf(`echo "@(a)" '!(b)' \\@\\(c\\)`)).toBeNull();
    expect(lineOf('echo @(a|b)', true)).toBeNull();
  });

  it('a pattern inside ${…} is read only when it expands, never a syntax error', () => {
    expect(lineOf('f=abc123; echo ${f//+([0-9])/#} ${f%%+([0-9])} "${f/@(a|b)/X}" ${f#!(q)}')).toBeNull();
    expect(lineOf('echo ${f//+([0-9])/#} +(a)')).toBe(1);
  });
});
