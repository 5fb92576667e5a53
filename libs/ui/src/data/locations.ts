import type { CitiesResponse, City, CountriesResponse, Country } from '@cartable/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../api/client';
import { compareFrench } from '../collate';
import { queryKeys } from './keys';

/** Reference lists change rarely: kept fresh 15 minutes (SPEC section 9). */
export const REFERENCE_STALE_MS = 15 * 60_000;

export async function fetchCountries(signal?: AbortSignal): Promise<Country[]> {
  return (await api.get<CountriesResponse>('/locations/countries', { signal })).countries;
}

export async function fetchCities(countryId: number, signal?: AbortSignal): Promise<City[]> {
  return (await api.get<CitiesResponse>('/locations/cities', { query: { country_id: countryId }, signal })).cities;
}

/** GET /locations/countries, cached under `queryKeys.locations.countries`. */
export const countriesQuery = () =>
  queryOptions({
    queryKey: queryKeys.locations.countries,
    queryFn: ({ signal }) => fetchCountries(signal),
    staleTime: REFERENCE_STALE_MS,
  });

/** GET /locations/cities?country_id=…; disabled until a country is chosen. */
export const citiesQuery = (countryId: number | null) =>
  queryOptions({
    queryKey: queryKeys.locations.cities(countryId ?? 0),
    queryFn: ({ signal }) => fetchCities(countryId ?? 0, signal),
    enabled: Boolean(countryId),
    staleTime: REFERENCE_STALE_MS,
  });

export function useCountries() {
  return useQuery(countriesQuery());
}

export function useCities(countryId: number | null) {
  return useQuery(citiesQuery(countryId));
}

export interface ProvinceCities {
  name: string;
  cities: City[];
}

/**
 * Cities grouped by province, the provinces in French order and, inside each, the major cities
 * first, then by name. The cities without a province go under `unnamed` (the catalogue's home
 * says « Gabon », SPEC section 9; the sign-up form's select « Autres »).
 */
export function groupByProvince(cities: readonly City[], unnamed: string): ProvinceCities[] {
  const groups = new Map<string, City[]>();
  for (const city of cities) {
    const name = city.province?.trim() || unnamed;
    const list = groups.get(name);
    if (list) list.push(city);
    else groups.set(name, [city]);
  }
  return Array.from(groups, ([name, list]) => ({
    name,
    cities: list.sort((a, b) => Number(b.is_major) - Number(a.is_major) || compareFrench(a.name, b.name)),
  })).sort((a, b) => compareFrench(a.name, b.name));
}
