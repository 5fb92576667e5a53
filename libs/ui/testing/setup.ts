/**
 * Set-up of the frontends' component tests (vitest, jsdom, Testing Library, MSW), run for each
 * test file: the MSW server listens for the file and answers the API client's calls as the
 * services would; each test adds the answers it needs (`server.use(...)`), and a call nobody
 * answers fails the test.
 */

import { sessionStore } from '@cartable/ui';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { server } from './server';

// A form's checks load with its first submission (lazyChecks): the first one of a file compiles
// the contracts and zod, which takes this machine more than Testing Library's default second.
configure({ asyncUtilTimeout: 5000 });

// React's act() in a test environment that is not a test renderer.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/**
 * Node's fetch (which MSW intercepts) takes no relative URL and no AbortSignal of jsdom's: the
 * client asks for /api/… with React Query's signal, as a browser would; both are translated here.
 */
function browserLikeFetch(fetch: typeof globalThis.fetch): typeof globalThis.fetch {
  return (input, init) => {
    const url = typeof input === 'string' && input.startsWith('/') ? new URL(input, window.location.origin) : input;
    const signal = init?.signal;
    if (!signal) return fetch(url, init);
    const controller = new AbortController();
    if (signal.aborted) controller.abort();
    else signal.addEventListener('abort', () => controller.abort(), { once: true });
    return fetch(url, { ...init, signal: controller.signal });
  };
}

/*
 * What jsdom lacks and the screens use: media queries (a phone's layout: nothing matches), the
 * observers (what is observed is on the screen at once), scrolling to an element.
 */
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}
class OnScreen {
  constructor(private readonly callback: IntersectionObserverCallback) {}
  observe(target: Element) {
    this.callback(
      [{ target, isIntersecting: true, intersectionRatio: 1 } as IntersectionObserverEntry],
      this as unknown as IntersectionObserver,
    );
  }
  unobserve() {}
  disconnect() {}
  takeRecords() {
    return [];
  }
}
globalThis.IntersectionObserver ??= OnScreen as unknown as typeof IntersectionObserver;
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
} as unknown as typeof ResizeObserver;
Element.prototype.scrollIntoView ??= () => {};

let unpatched: typeof globalThis.fetch;
beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  unpatched = globalThis.fetch;
  globalThis.fetch = browserLikeFetch(unpatched);
});
afterEach(() => {
  cleanup();
  server.resetHandlers();
  // Each test starts signed out: the session lives in memory as well as in localStorage.
  sessionStore.clear();
  localStorage.clear();
});
afterAll(() => {
  globalThis.fetch = unpatched;
  server.close();
});
