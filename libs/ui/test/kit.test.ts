// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { User } from '../src/session/types';

const verified: User = {
  id: '0b8f9c5e-1d2a-4c3b-9e8f-7a6b5c4d3e2f',
  name: 'Awa Nzé',
  email: 'awa@exemple.ga',
  username: 'awa',
  profile_image: null,
  email_verified: true,
  is_admin: false,
  roles: [{ slug: 'moderator', name: 'Modérateur', permissions: [{ slug: 'cities.manage' }] }],
  permissions: [{ slug: 'reports.view' }],
  country_id: 266,
  city_id: 1,
  created_at: '2026-09-01T08:00:00.000Z',
};

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** Fresh copy of the kit, so the session store re-reads localStorage. */
async function loadKit() {
  vi.resetModules();
  return import('../src/index');
}

beforeEach(() => {
  localStorage.clear();
  window.history.replaceState(null, '', '/');
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('formatPrice', () => {
  it('formats XOF in French without decimals and shows zero as a gift', async () => {
    const { formatPrice } = await loadKit();
    expect(formatPrice(12500).replace(/\s/g, ' ')).toBe('12 500 F CFA');
    expect(formatPrice(0)).toBe('Gratuit');
    expect(formatPrice(0, { zeroLabel: 'Don' })).toBe('Don');
    expect(formatPrice(null)).toBe('');
  });
});

describe('permissions', () => {
  it('grants directly, through a role, by wildcard or to admins', async () => {
    const { hasPermission, hasRole } = await loadKit();
    expect(hasPermission('reports.view', verified)).toBe(true);
    expect(hasPermission('cities.manage', verified)).toBe(true);
    expect(hasPermission('banners.manage', verified)).toBe(false);
    expect(hasPermission('banners.manage', { ...verified, permissions: [{ slug: '*' }] })).toBe(true);
    expect(hasPermission('banners.manage', { ...verified, is_admin: true })).toBe(true);
    expect(hasPermission('banners.manage', null)).toBe(false);
    expect(hasRole('moderator', verified)).toBe(true);
    expect(hasRole('admin', verified)).toBe(false);
    expect(hasRole('admin', { ...verified, is_admin: true })).toBe(true);
  });

  it('checks the signed-in user when no user is given', async () => {
    localStorage.setItem('token', 'tok');
    localStorage.setItem('user', JSON.stringify(verified));
    const { hasPermission } = await loadKit();
    expect(hasPermission('reports.view')).toBe(true);
  });
});

describe('initials', () => {
  it('takes two letters, AD by default', async () => {
    const { initials } = await loadKit();
    expect(initials('Jean-Pierre Mba')).toBe('JM');
    expect(initials('Administrateur')).toBe('AD');
    expect(initials(undefined)).toBe('AD');
  });
});

describe('pageItems', () => {
  it('centres a window of 5 pages, with the first and last pages and gaps on request', async () => {
    const { pageItems } = await loadKit();
    expect(pageItems(1, 1)).toEqual([]);
    expect(pageItems(1, 3)).toEqual([1, 2, 3]);
    expect(pageItems(6, 20)).toEqual([4, 5, 6, 7, 8]);
    expect(pageItems(19, 20)).toEqual([16, 17, 18, 19, 20]);
    expect(pageItems(6, 20, { edges: true })).toEqual([1, 'gap-start', 4, 5, 6, 7, 8, 'gap-end', 20]);
    expect(pageItems(4, 7, { edges: true })).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(pageItems(1, 7, { edges: true })).toEqual([1, 2, 3, 4, 5, 'gap-end', 7]);
  });
});

describe('formatDateTime', () => {
  it('builds its Intl formatter on first use, once, not when the kit loads', async () => {
    const Original = Intl.DateTimeFormat;
    let built = 0;
    Intl.DateTimeFormat = class extends Original {
      constructor(...args: ConstructorParameters<typeof Original>) {
        super(...args);
        built++;
      }
    } as typeof Original;
    try {
      const { formatDate, formatDateTime } = await loadKit();
      expect(built).toBe(0);
      formatDateTime('2025-06-12T14:05:00');
      formatDateTime('2025-06-13T09:00:00');
      // formatDate writes its dates by hand (src/format.ts): no formatter of its own.
      expect(formatDate('2025-06-01')).toBe('1 juin 2025');
      expect(built).toBe(1);
    } finally {
      Intl.DateTimeFormat = Original;
    }
  });

  it('writes a French date and time, nothing for a missing or invalid date', async () => {
    const { formatDateTime } = await loadKit();
    expect(formatDateTime('2025-06-12T14:05:00')).toMatch(/^12 juin 2025,? (à )?14:05$/);
    expect(formatDateTime(null)).toBe('');
    expect(formatDateTime('pas une date')).toBe('');
  });
});

describe('session', () => {
  it('erases corrupt stored data', async () => {
    localStorage.setItem('token', 'tok');
    localStorage.setItem('user', '{oops');
    const { sessionStore } = await loadKit();
    expect(sessionStore.getState().user).toBeNull();
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('user')).toBeNull();
  });

  it('erases an unverified stored user', async () => {
    localStorage.setItem('token', 'tok');
    localStorage.setItem('user', JSON.stringify({ ...verified, email_verified: false }));
    const { getSession } = await loadKit();
    expect(getSession().isAuthenticated).toBe(false);
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('stores a login only with a token and a verified user', async () => {
    const { storeLogin, getSession } = await loadKit();
    expect(storeLogin({ access_token: 'tok', user: { ...verified, email_verified: false } })).toBe(false);
    expect(storeLogin({ access_token: '', user: verified })).toBe(false);
    expect(getSession().isAuthenticated).toBe(false);
    expect(storeLogin({ access_token: 'tok', user: verified })).toBe(true);
    expect(getSession().isAuthenticated).toBe(true);
    expect(localStorage.getItem('token')).toBe('tok');
  });

  it('forgets the offline favourites when the member signs out, for the next person on the phone', async () => {
    localStorage.setItem('token', 'tok');
    localStorage.setItem('user', JSON.stringify(verified));
    localStorage.setItem('favourites', '[3,7]');
    const { sessionStore, favouritesStore } = await loadKit();
    expect(favouritesStore.read()).toEqual([3, 7]);
    sessionStore.clear();
    expect(favouritesStore.read()).toEqual([]);
    expect(localStorage.getItem('favourites')).toBe('[]');
  });

  it('clears the session when GET /api/user answers 401 at start', async () => {
    localStorage.setItem('token', 'tok');
    localStorage.setItem('user', JSON.stringify(verified));
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const fetchMock = vi.fn(async () => jsonResponse(401, { message: 'Non authentifié.' }));
    vi.stubGlobal('fetch', fetchMock);
    const { initSession, getSession } = await loadKit();
    expect(getSession().status).toBe('checking');
    await initSession();
    expect(fetchMock).toHaveBeenCalledWith('/api/user', expect.anything());
    expect(getSession().isAuthenticated).toBe(false);
    expect(getSession().status).toBe('ready');
  });

  it('keeps the session when the server cannot be reached at start', async () => {
    localStorage.setItem('token', 'tok');
    localStorage.setItem('user', JSON.stringify(verified));
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    const { initSession, getSession } = await loadKit();
    await initSession();
    expect(getSession().isAuthenticated).toBe(true);
  });

  it('logout clears token and user even when the call fails', async () => {
    localStorage.setItem('token', 'tok');
    localStorage.setItem('user', JSON.stringify(verified));
    const fetchMock = vi.fn(async () => jsonResponse(500, { message: 'Erreur' }));
    vi.stubGlobal('fetch', fetchMock);
    const { logout, getSession } = await loadKit();
    await logout();
    expect(fetchMock).toHaveBeenCalledWith('/api/logout', expect.objectContaining({ method: 'POST' }));
    expect(getSession().token).toBeNull();
    expect(localStorage.getItem('user')).toBeNull();
  });
});

describe('api client', () => {
  it('sends JSON with the bearer token', async () => {
    localStorage.setItem('token', 'tok');
    localStorage.setItem('user', JSON.stringify(verified));
    const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) => jsonResponse(200, { ok: true }));
    vi.stubGlobal('fetch', fetchMock);
    const { api } = await loadKit();
    await expect(api.post('/contact', { name: 'A' })).resolves.toEqual({ ok: true });
    const init = fetchMock.mock.calls[0]?.[1];
    const headers = init?.headers as Record<string, string>;
    expect(headers.Authorization).toBe('Bearer tok');
    expect(headers['Content-Type']).toBe('application/json');
    expect(init?.body).toBe('{"name":"A"}');
  });

  it('throws ApiError with the server message and field errors', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse(422, { message: 'Données invalides', errors: { email: ['Email déjà utilisé'] } })),
    );
    const { api, ApiError } = await loadKit();
    const error = await api.post('/register', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 422, message: 'Données invalides', hasServerMessage: true });
    expect((error as InstanceType<typeof ApiError>).fieldError('email')).toBe('Email déjà utilisé');
  });

  it('reports network failures in French', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    const { api, errorMessage } = await loadKit();
    const error = await api.get('/books').catch((e: unknown) => e);
    expect(errorMessage(error, 'fallback')).toBe(
      'Erreur de connexion. Vérifiez votre connexion internet et réessayez.',
    );
  });

  it('warns on 401/403 outside /login and /register only', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse(403, {})),
    );
    const { api, errorMessage } = await loadKit();
    const error = await api.get('/user/books').catch((e: unknown) => e);
    expect(warn).toHaveBeenCalledWith('Token expiré ou invalide détecté');
    expect(errorMessage(error, 'Erreur lors du chargement')).toBe('Erreur lors du chargement');
    warn.mockClear();
    window.history.replaceState(null, '', '/login');
    await api.post('/login', {}).catch(() => undefined);
    expect(warn).not.toHaveBeenCalled();
  });
});

describe('a file from the API (responseType: blob)', () => {
  it('hands the body over as it came with the token, and a refusal still as the server’s French message', async () => {
    localStorage.setItem('token', 'tok');
    localStorage.setItem('user', JSON.stringify(verified));
    const csv = '\uFEFFType;Nombre\r\nAnnonces;3';
    const fetchMock = vi.fn(async (url: string) =>
      url.includes('refuse')
        ? jsonResponse(403, { message: 'Accès refusé.' })
        : new Response(csv, { status: 200, headers: { 'Content-Type': 'text/csv; charset=utf-8' } }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const { api, ApiError } = await loadKit();
    const file = await api.get<Blob>('/admin/stats/catalog/supply-demand.csv', {
      query: { from: '2026-09-01' },
      responseType: 'blob',
    });
    // Byte for byte, the byte-order mark Excel needs included.
    expect(new TextDecoder('utf-8', { ignoreBOM: true }).decode(await file.arrayBuffer())).toBe(csv);
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/admin/stats/catalog/supply-demand.csv?from=2026-09-01',
      expect.objectContaining({ headers: expect.objectContaining({ Authorization: 'Bearer tok' }) }),
    );
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const refused = await api.get('/refuse', { responseType: 'blob' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as InstanceType<typeof ApiError>).message).toBe('Accès refusé.');
  });
});
