/**
 * A path on this site to go back to, or null: `return_url` and navigation state come from the
 * address bar, so `//evil.example`, `/\evil.example` (browsers read `\` as `/`), `https://…`,
 * `javascript:…` or control characters must never become a navigation.
 */
export function sameSitePath(raw: string | null | undefined, origin = window.location.origin): string | null {
  if (!raw?.startsWith('/') || /[\\\u0000-\u001f\u007f]/.test(raw)) return null;
  try {
    const url = new URL(raw, origin);
    return url.origin === origin ? `${url.pathname}${url.search}${url.hash}` : null;
  } catch {
    return null;
  }
}
