// Types only: the home page must not load the contracts (and zod) to show its cities.
import type { City } from '@cartable/contracts';
import { citiesQuery, groupByProvince, type ProvinceCities } from '@cartable/ui';
import { useQuery } from '@tanstack/react-query';

/**
 * Gabon's cities for the catalogue's selects and the home page. The query (key, fetcher, 15-minute
 * cache) is the shared one of libs/ui: the shell's location fields read the same cache.
 */
export type { City };

/** Default country (SPEC section 9: city list default country id 266 = Gabon). */
export const GABON_ID = 266;
/** Province label used when a city has none (SPEC section 9). */
export const DEFAULT_PROVINCE = 'Gabon';

/** Cities grouped by province, those without one under « Gabon » (SPEC section 9). */
export const gabonProvinces = (cities: readonly City[]): ProvinceCities[] => groupByProvince(cities, DEFAULT_PROVINCE);

/** Gabon's cities (cached 15 minutes, SPEC section 9), for the city selects. */
export function useGabonCities() {
  return useQuery(citiesQuery(GABON_ID));
}
