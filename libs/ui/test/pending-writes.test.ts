// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PENDING_WRITES, REPLAY_WRITES } from '../src/offline/names';
import { RETRY_WRITES_MS, usePendingWrites } from '../src/offline/pending-writes';

/**
 * The page asks the worker to send the waiting writes again while the browser says it is online: a
 * send that failed as the network came back is not left for the browser's background sync.
 */

/** A service worker that keeps `waiting` writes and records what pages ask it. */
function fakeWorker(waiting: number) {
  const asked: string[] = [];
  const controller = {
    postMessage(message: { type: string }, ports?: MessagePort[]) {
      asked.push(message.type);
      if (message.type === PENDING_WRITES)
        ports?.[0]?.postMessage(
          Array.from({ length: waiting }, (_, i) => ({
            id: String(i),
            label: 'Message',
            at: new Date().toISOString(),
          })),
        );
    },
  };
  const container = Object.assign(new EventTarget(), { controller });
  Object.defineProperty(navigator, 'serviceWorker', { configurable: true, value: container });
  return asked;
}

const news = { onSent: () => {}, onRefused: () => {} };

afterEach(() => {
  vi.useRealTimers();
  Object.defineProperty(navigator, 'onLine', { configurable: true, value: true });
});

describe('writes waiting on the phone', () => {
  it('are asked for again while online, until none waits', async () => {
    const { renderHook } = await import('@testing-library/react');
    const asked = fakeWorker(2);
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { result, unmount } = renderHook(() => usePendingWrites(news));
    await vi.waitFor(() => expect(result.current).toHaveLength(2));
    const replays = () => asked.filter((type) => type === REPLAY_WRITES).length;
    const first = replays();
    vi.advanceTimersByTime(RETRY_WRITES_MS);
    expect(replays()).toBe(first + 1);
    // Offline: nothing is asked, the browser would refuse it anyway.
    Object.defineProperty(navigator, 'onLine', { configurable: true, value: false });
    vi.advanceTimersByTime(3 * RETRY_WRITES_MS);
    expect(replays()).toBe(first + 1);
    unmount();
  });

  it('are not asked for when none waits', async () => {
    const { renderHook } = await import('@testing-library/react');
    const asked = fakeWorker(0);
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { result, unmount } = renderHook(() => usePendingWrites(news));
    await vi.waitFor(() => expect(asked).toContain(PENDING_WRITES));
    expect(result.current).toEqual([]);
    const before = asked.filter((type) => type === REPLAY_WRITES).length;
    vi.advanceTimersByTime(3 * RETRY_WRITES_MS);
    expect(asked.filter((type) => type === REPLAY_WRITES).length).toBe(before);
    unmount();
  });
});
