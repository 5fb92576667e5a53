import { api } from '@cartable/ui';
import { useQuery } from '@tanstack/react-query';

/** Default country (SPEC section 9: city list default country id 266 = Gabon). */
export const GABON_ID = 266;
/** Province label used when a city has none (SPEC section 9). */
export const DEFAULT_PROVINCE = 'Gabon';

export interface City {
  id: number;
  name: string;
  province: string | null;
  is_major: boolean;
}

export interface Country {
  id: number;
  nom_fr_fr: string;
  alpha2: string;
}

export const locationKeys = {
  cities: (countryId: number) => ['locations', 'cities', countryId] as const,
  countries: ['locations', 'countries'] as const,
};

export async function fetchCities(countryId: number, signal?: AbortSignal): Promise<City[]> {
  const data = await api.get<{ cities?: City[] }>('/locations/cities', {
    query: { country_id: countryId },
    signal,
  });
  return Array.isArray(data?.cities) ? data.cities : [];
}

export async function fetchCountries(signal?: AbortSignal): Promise<Country[]> {
  const data = await api.get<{ countries?: Country[] }>('/locations/countries', { signal });
  return Array.isArray(data?.countries) ? data.countries : [];
}

export interface Province {
  name: string;
  cities: City[];
}

const collator = new Intl.Collator('fr', { sensitivity: 'base' });

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
    cities: list.sort((a, b) => Number(b.is_major) - Number(a.is_major) || collator.compare(a.name, b.name)),
  })).sort((a, b) => collator.compare(a.name, b.name));
}

/** Gabon's cities (cached 15 minutes, SPEC section 9), for the city selects. */
export function useGabonCities() {
  return useQuery({
    queryKey: locationKeys.cities(GABON_ID),
    queryFn: ({ signal }) => fetchCities(GABON_ID, signal),
    staleTime: 15 * 60_000,
  });
}
