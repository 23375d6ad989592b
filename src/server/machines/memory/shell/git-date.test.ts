import { describe, expect, it } from 'vitest';
import { showDate } from './git-date.ts';

// git's date.c (show_date) as git 2.43 prints it: the strict ISO form spells a UTC zone `+00:00`, as any other.
describe('showDate', () => {
  const t = 1700000000;
  it('prints iso-strict with a numeric zone, UTC included', () => {
    expect(showDate(t, 0, 'iso-strict', t)).toBe('2023-11-14T22:13:20+00:00');
    expect(showDate(t, -150, 'iso-strict', t)).toBe('2023-11-14T19:43:20-02:30');
    expect(showDate(t, 60, 'iso', t)).toBe('2023-11-14 23:13:20 +0100');
  });
});
