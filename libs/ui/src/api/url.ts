/**
 * API URLs, in a module of their own (no browser state): the catalog's build writes the URL of a
 * page's first read with it, and the gateway preloads that exact URL (libs/ui/build/preloads.ts).
 */

/** Root of every API call: the gateway serves the API under /api on the same origin. */
export const API_BASE = '/api';

export type QueryValues = Record<string, string | number | boolean | null | undefined>;

/** The URL of an API call: undefined, null and empty values are left out, the rest kept in order. */
export function apiUrl(path: string, query?: QueryValues): string {
  const url = `${API_BASE}${path.startsWith('/') ? path : `/${path}`}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, String(value));
  }
  const qs = params.toString();
  return qs ? `${url}?${qs}` : url;
}
