import { describe, expect, it } from 'vitest';
import { nameGlob } from './name-glob.ts';

const matchesNameGlob = (name: string, pattern: string) => nameGlob(pattern)(name);

describe('matchesNameGlob', () => {
  it.each([
    ['notes.txt', '*.txt', true],
    ['notes.txt', '*.md', false],
    ['notes.txt', 'notes.txt', true],
    ['notes.txt', 'note', false],
    ['notes.txt', '*', true],
    ['a', '?', true],
    ['ab', '?', false],
    ['', '*', true],
    ['', '?', false],
    ['main.py', 'm*n*.py', true],
    ['main.py', 'm*x*.py', false],
    ['abcabd', '*abd', true],
    ['abcabc', '*abd', false],
    ['x1', 'x[0-9]', true],
    ['xa', 'x[0-9]', false],
    ['xa', 'x[!0-9]', true],
    ['xa', 'x[^a]', false],
    ['x]', 'x[]]', true],
    ['x-', 'x[a-]', true],
    ['x[', 'x[', true],
    ['x[y', 'x[y', true],
    ['a*b', 'a\\*b', true],
    ['axb', 'a\\*b', false],
    ['é.txt', '?.txt', true],
    ['日本.md', '[日]*', true],
    ['.bashrc', '*', false],
    ['.bashrc', '.*', true],
    ['.bashrc', '\\.bash*', true],
    ['.bashrc', '?bashrc', false],
    ['Abc', '[[:upper:]]*', true],
    ['abc', '[[:upper:]]*', false],
    ['7up', '[[:digit:]]*', true],
    ['éa', '[[:alpha:]]?', true],
    ['_x', '[![:alnum:]]x', true],
    ['ax', '[![:alnum:]]x', false],
    ['a', '[[:nope:]]', false],
    ['a-z', '[[:lower:]]-[[:lower:]]', true],
    ['[a', '[a', true],
    ['[a]', '[a[b]]', false],
    ['a]', '[a[b]]', true],
    ['[ax', '[a[:x:]', true],
    ['[a:', '[a[:x:]', true],
    ['x!', 'x[!0-9]', true],
    ['x0', 'x[0-9]', true],
    ['x9', 'x[0-9]', true],
    ['b', '[ac]', false],
    ['a', '[ab:]', true],
    [':', '[ab:]', true],
    [':', '[[:a]', true],
    ['b', '[[:a]', false],
    ['b', '[[:a:b]', true],
    ['-', '[\\-a]', true],
    ['b', '[\\-a]', false],
    [']', '[\\]]', true],
    ['m', '[a-\\z]', true],
    ['[a-', '[a-', true],
    ['a\\', 'a\\', true],
    ['.hidden.txt', '*.txt', false],
    ['b', '[a:b:]', true],
    [']a', '][[:a]', true],
  ])('%j against %j → %s', (name, pattern, expected) => {
    expect(matchesNameGlob(name, pattern)).toBe(expected);
  });

  it.each([
    ['xdigit', 'f', 'g'],
    ['word', '_', '-'],
    ['space', ' ', 'a'],
    ['blank', '\t', '\n'],
    ['punct', '!', 'a'],
    ['cntrl', '\x01', 'a'],
    ['print', 'a', '\x01'],
    ['graph', 'a', ' '],
  ])('[[:%s:]] takes %j and not %j', (cls, yes, no) => {
    const match = nameGlob(`[[:${cls}:]]`);
    expect([match(yes), match(no)]).toEqual([true, false]);
  });

  it('reads a pattern of unclosed brackets once, in one pass (each `[` scanning to the end stalled the server)', () => {
    const open = '[a'.repeat(50_000);
    const match = nameGlob(open);
    expect(match('[a'.repeat(100))).toBe(false);
    expect(nameGlob(`${'['.repeat(100_000)}x`)('x')).toBe(false);
    expect(nameGlob(`${'['.repeat(3)}x`)('[[[x')).toBe(true);
  });

  it('does not backtrack into every split of the name (a regex-based glob stalls on these)', () => {
    const name = 'a'.repeat(255);
    expect(matchesNameGlob(name, `${'*a'.repeat(40)}b`)).toBe(false);
    expect(matchesNameGlob(name, `${'*a'.repeat(40)}*`)).toBe(true);
  });
});
