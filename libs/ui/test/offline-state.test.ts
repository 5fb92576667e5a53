// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { OFFLINE_HEADER, RECEIVED_AT_HEADER } from '../src/offline/names';
import { forgetOfflineAnswers, noteApiAnswer, seenAgo } from '../src/offline/offline-state';

/** What the shell's banner reads: the oldest answer of the page that came from the phone. */
async function seenAt(): Promise<number | null> {
  const { renderHook } = await import('@testing-library/react');
  const { useOfflineState } = await import('../src/offline/offline-state');
  const { result, unmount } = renderHook(() => useOfflineState());
  const value = result.current.seenAt;
  unmount();
  return value;
}

const fromPhone = (receivedAt: string) =>
  new Response('{}', { headers: { [OFFLINE_HEADER]: '1', [RECEIVED_AT_HEADER]: receivedAt } });

describe('answers read from the phone', () => {
  it('keeps the oldest, forgets one answered fresh again, and all of them on a new page', async () => {
    noteApiAnswer('/api/books/1', fromPhone('2026-12-07T08:00:00.000Z'));
    noteApiAnswer('/api/books/1/comments', fromPhone('2026-12-07T09:30:00.000Z'));
    expect(await seenAt()).toBe(Date.parse('2026-12-07T08:00:00.000Z'));
    noteApiAnswer('/api/books/1', new Response('{}'));
    expect(await seenAt()).toBe(Date.parse('2026-12-07T09:30:00.000Z'));
    forgetOfflineAnswers();
    expect(await seenAt()).toBeNull();
  });

  it('does not date the worker’s own « never opened » answer', async () => {
    noteApiAnswer('/api/transactions', new Response('{}', { status: 503, headers: { [OFFLINE_HEADER]: '1' } }));
    expect(await seenAt()).toBeNull();
  });

  it('says the age in French words', () => {
    const now = Date.parse('2026-12-07T12:00:00.000Z');
    expect(seenAgo(now - 20_000, now)).toBe('à l’instant');
    expect(seenAgo(now - 12 * 60_000, now)).toBe('il y a 12 minutes');
    expect(seenAgo(now - 3 * 3600_000, now)).toBe('il y a 3 heures');
    expect(seenAgo(now - 26 * 3600_000, now)).toBe('hier');
    expect(seenAgo(now - 3 * 86_400_000, now)).toBe('il y a 3 jours');
  });
});
