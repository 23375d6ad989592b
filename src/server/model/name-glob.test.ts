import { describe, expect, it } from 'vitest';
import { matchesNameGlob } from './name-glob.ts';

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
  ])('%j against %j → %s', (name, pattern, expected) => {
    expect(matchesNameGlob(name, pattern)).toBe(expected);
  });

  it('does not backtrack into every split of the name (a regex-based glob stalls on these)', () => {
    const name = 'a'.repeat(255);
    expect(matchesNameGlob(name, `${'*a'.repeat(40)}b`)).toBe(false);
    expect(matchesNameGlob(name, `${'*a'.repeat(40)}*`)).toBe(true);
  });
});
