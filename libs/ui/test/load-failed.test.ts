// @vitest-environment jsdom
import { act, createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../src/api/client';
import { LoadFailed, type RetryableRead } from '../src/components/LoadFailed';

// React's act() outside a test renderer: tell it this environment supports it.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const mounted: (() => void)[] = [];
afterEach(() => {
  for (const unmount of mounted.splice(0)) unmount();
});

function render(query: RetryableRead, fallback?: string) {
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  act(() => root.render(createElement(LoadFailed, { title: 'Impossible de charger vos annonces.', query, fallback })));
  mounted.push(() => {
    act(() => root.unmount());
    container.remove();
  });
  return container;
}

describe('LoadFailed', () => {
  it('says what failed and why, as an alert, and « Réessayer » reads again', () => {
    const refetch = vi.fn();
    const error = new ApiError(503, 'Service momentanément indisponible.', { hasServerMessage: true });
    const view = render({ error, isFetching: false, refetch });
    const alert = view.querySelector('[role="alert"]');
    expect(alert?.textContent).toContain('Impossible de charger vos annonces.');
    expect(alert?.textContent).toContain('Service momentanément indisponible.');
    const button = [...view.querySelectorAll('button')].find((b) => b.textContent?.includes('Réessayer'));
    expect(button?.disabled).toBe(false);
    act(() => button?.click());
    expect(refetch).toHaveBeenCalledTimes(1);
  });

  it('falls back to its own words for an error without a French message, and waits while reading again', () => {
    const view = render(
      { error: new TypeError('x'), isFetching: true, refetch: vi.fn() },
      'La liste n’a pas pu être chargée.',
    );
    expect(view.textContent).toContain('La liste n’a pas pu être chargée.');
    expect(view.textContent).not.toContain('TypeError');
    const button = view.querySelector('button');
    expect(button?.disabled).toBe(true);
    expect(button?.getAttribute('aria-busy')).toBe('true');
  });
});
