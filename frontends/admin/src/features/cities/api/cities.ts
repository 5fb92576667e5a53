// Types only: the list must not load the contracts (and zod).
import type {
  AdminCity,
  AdminCityPage,
  CityImportReport,
  CityRequest,
  CityResponse,
  MessageResponse,
  ProvincesResponse,
} from '@cartable/contracts';
import { api } from '@cartable/ui';
import { keepPreviousData, type QueryClient, queryOptions, useMutation, useQuery } from '@tanstack/react-query';

/** Cities in the back office (services/catalog/API.md « Locations »), for holders of cities.manage. */
export type { AdminCity, CityImportReport, CityRequest };

/** SPEC section 9: Gabon (ISO 3166-1 numeric 266) is the default country. */
export const DEFAULT_COUNTRY_ID = 266;

export interface CityQuery {
  search?: string;
  province?: string;
  major_only?: 'true' | 'false' | '';
  page: number;
  per_page?: number;
}

export const cityKeys = {
  all: ['admin', 'cities'] as const,
  list: (query: CityQuery) => ['admin', 'cities', 'list', query] as const,
  provinces: (countryId: number) => ['admin', 'cities', 'provinces', countryId] as const,
};

export function fetchCities(query: CityQuery, signal?: AbortSignal) {
  return api.get<AdminCityPage>('/admin/cities', { query: { country_id: DEFAULT_COUNTRY_ID, ...query }, signal });
}

export const citiesQuery = (query: CityQuery) =>
  queryOptions({
    queryKey: cityKeys.list(query),
    queryFn: ({ signal }) => fetchCities(query, signal),
    placeholderData: keepPreviousData,
  });
export const useAdminCities = (query: CityQuery) => useQuery(citiesQuery(query));

export const useProvinces = (countryId = DEFAULT_COUNTRY_ID) =>
  useQuery({
    queryKey: cityKeys.provinces(countryId),
    queryFn: async ({ signal }) =>
      (
        await api.get<ProvincesResponse>(`/countries/${countryId}/provinces`, {
          signal,
        })
      ).provinces,
    staleTime: 5 * 60_000,
  });

/** Lists, counts and the public reference lists (the city pickers) all change with a city. */
export function refreshCities(queryClient: QueryClient) {
  void queryClient.invalidateQueries({ queryKey: cityKeys.all });
  void queryClient.invalidateQueries({ queryKey: ['locations'] });
}

interface Handlers<Answer> {
  onSuccess: (answer: Answer) => void;
  onError: (error: unknown) => void;
}

export function useSaveCity(queryClient: QueryClient, handlers: Handlers<{ city: AdminCity | { name: string } }>) {
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: CityRequest }) =>
      id === null ? api.post<CityResponse>('/admin/cities', body) : api.put<CityResponse>(`/admin/cities/${id}`, body),
    onSuccess: (answer) => {
      handlers.onSuccess(answer);
      refreshCities(queryClient);
    },
    onError: handlers.onError,
  });
}

export function useDeleteCity(queryClient: QueryClient, handlers: Handlers<{ message: string }>) {
  return useMutation({
    mutationFn: (id: number) => api.delete<MessageResponse>(`/admin/cities/${id}`),
    onSuccess: (answer) => {
      handlers.onSuccess(answer);
      refreshCities(queryClient);
    },
    onError: handlers.onError,
  });
}

/** POST /admin/cities/import: `dryRun` is the preview (nothing written). */
export function importCities(file: File, countryId: number, dryRun: boolean) {
  const form = new FormData();
  form.append('country_id', String(countryId));
  form.append('csv_file', file);
  return api.post<CityImportReport>(`/admin/cities/import${dryRun ? '?dry_run=true' : ''}`, form);
}
