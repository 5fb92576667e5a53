import { describe, expect, it } from 'vitest';
import { relativeTime } from '../src/features/conversations/dates';

/** The messages list's dates are short, so that on a 360 px phone the other member's name keeps its room. */
describe('the date of a conversation in the list', () => {
  const now = Date.parse('2026-12-08T12:00:00Z');
  const ago = (ms: number) => new Date(now - ms).toISOString();
  // Intl puts a no-break space between the number and its unit.
  const said = (ms: number) => relativeTime(ago(ms), now).replace(/\s/g, ' ');

  it('says minutes and hours in short units', () => {
    expect(said(20_000)).toBe("à l'instant");
    expect(said(10 * 60_000)).toBe('il y a 10 min');
    expect(said(3 * 3_600_000)).toBe('il y a 3 h');
  });
});
