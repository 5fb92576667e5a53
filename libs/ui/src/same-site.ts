/** A control character (C0 or DEL). */
const isControl = (char: string) => {
  const code = char.charCodeAt(0);
  return code < 0x20 || code === 0x7f;
};

/**
 * A path on this site to go back to, or null: `return_url` and navigation state come from the
 * address bar, so `//evil.example`, `/\evil.example` (browsers read `\` as `/`), `https://…`,
 * `javascript:…` or control characters must never become a navigation.
 */
export function sameSitePath(raw: string | null | undefined, origin = window.location.origin): string | null {
  if (!raw?.startsWith('/') || raw.includes('\\') || [...raw].some(isControl)) return null;
  try {
    const url = new URL(raw, origin);
    return url.origin === origin ? `${url.pathname}${url.search}${url.hash}` : null;
  } catch {
    return null;
  }
}
