import { AppToaster, storeLogin, type User } from '@cartable/ui';
import { MemoryRouter, Route, Routes } from '@cartable/ui/router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';

export interface ScreenOptions {
  /** The address the screen opens at (its query string too). */
  at?: string;
  /** The route pattern that renders it, for its params (`/books/:id`). */
  path?: string;
  /** Signed in as this member (a verified e-mail). */
  as?: User;
}

/** A member with a verified e-mail, as GET /api/user answers. */
export function member(overrides: Partial<User> = {}): User {
  return {
    id: '0b8f9c5e-1d2a-4c3b-9e8f-7a6b5c4d3e2f',
    name: 'Awa Nzé',
    email: 'awa@exemple.ga',
    username: 'awa',
    profile_image: null,
    email_verified: true,
    is_admin: false,
    roles: [],
    permissions: [],
    country_id: 266,
    city_id: 1,
    created_at: '2026-09-01T08:00:00.000Z',
    ...overrides,
  };
}

/**
 * Renders a screen as the app does: its own query client (no retry, so a failure shows at once),
 * the router at `at`, the toasts. Returns Testing Library's queries and the query client.
 */
export function renderScreen(ui: ReactNode, { at = '/', path = '*', as }: ScreenOptions = {}) {
  if (as) storeLogin({ access_token: 'jeton-de-test', user: as });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const result = render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[at]}>
        {path === '*' ? (
          ui
        ) : (
          <Routes>
            <Route path={path} element={ui} />
            <Route path="*" element={<p>Autre page</p>} />
          </Routes>
        )}
      </MemoryRouter>
      <AppToaster />
    </QueryClientProvider>,
  );
  return { ...result, client };
}
