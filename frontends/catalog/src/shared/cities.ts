// Types only: the home page must not load the contracts (and zod) to show its cities.
import type { City } from '@cartable/contracts';
import { citiesQuery, compareFrench } from '@cartable/ui';
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

export interface Province {
  name: string;
  cities: City[];
}

/** Cities grouped by province (alphabetical), major cities first inside each province. */
export function groupByProvince(cities: City[]): Province[] {
  const groups = new Map<string, City[]>();
  for (const city of cities) {
    const name = city.province?.trim() || DEFAULT_PROVINCE;
    const list = groups.get(name);
    if (list) list.push(city);
    else groups.set(name, [city]);
  }
  return Array.from(groups, ([name, list]) => ({
    name,
    cities: list.sort((a, b) => Number(b.is_major) - Number(a.is_major) || compareFrench(a.name, b.name)),
  })).sort((a, b) => compareFrench(a.name, b.name));
}

/** Gabon's cities (cached 15 minutes, SPEC section 9), for the city selects. */
export function useGabonCities() {
  return useQuery(citiesQuery(GABON_ID));
}
