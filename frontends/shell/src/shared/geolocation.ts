import { useEffect, useState } from 'react';

/** The value once it stopped changing for `delayMs`. */
export function useDebouncedValue<T>(value: T, delayMs: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}

export const GEOLOCATION_TIMEOUT_MS = 5000;
const REVERSE_GEOCODING_URL = 'https://api.bigdatacloud.net/data/reverse-geocode-client';

/**
 * The visitor's country (ISO alpha-2) from the browser's position and a reverse-geocoding
 * service, or null. Every failure (unsupported, denied, unavailable, timeout, network) is silent.
 */
export function guessCountryCode(signal?: AbortSignal): Promise<string | null> {
  return new Promise((resolve) => {
    if (typeof navigator === 'undefined' || !navigator.geolocation) {
      resolve(null);
      return;
    }
    try {
      navigator.geolocation.getCurrentPosition(
        async ({ coords }) => {
          try {
            const url = new URL(REVERSE_GEOCODING_URL);
            url.searchParams.set('latitude', String(coords.latitude));
            url.searchParams.set('longitude', String(coords.longitude));
            url.searchParams.set('localityLanguage', 'fr');
            // Older browsers lack AbortSignal.timeout/any: one controller for both reasons.
            const controller = new AbortController();
            const timer = setTimeout(() => controller.abort(), GEOLOCATION_TIMEOUT_MS);
            signal?.addEventListener('abort', () => controller.abort(), { once: true });
            const response = await fetch(url, { signal: controller.signal, credentials: 'omit' }).finally(() =>
              clearTimeout(timer),
            );
            const data = (response.ok ? await response.json() : null) as { countryCode?: unknown } | null;
            const code = typeof data?.countryCode === 'string' ? data.countryCode.trim().toUpperCase() : '';
            resolve(/^[A-Z]{2}$/.test(code) ? code : null);
          } catch {
            resolve(null);
          }
        },
        () => resolve(null),
        { timeout: GEOLOCATION_TIMEOUT_MS, maximumAge: 10 * 60_000, enableHighAccuracy: false },
      );
    } catch {
      resolve(null);
    }
  });
}
