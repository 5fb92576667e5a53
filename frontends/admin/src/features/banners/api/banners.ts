// Types only: the list must not load the contracts (and zod).
import type { Banner, BannerResponse, BannersResponse, MessageResponse } from '@cartable/contracts';
import { api } from '@cartable/ui';
import { type QueryClient, queryOptions, useMutation, useQuery } from '@tanstack/react-query';

/** The home carousel's banners (services/catalog/API.md « Banners »), for holders of banners.manage. */
export type { Banner };

export const bannerKeys = {
  all: ['admin', 'banners'] as const,
  /** The home page's carousel reads this key (frontends/catalog, home/api). */
  active: ['banners', 'active'] as const,
};

export async function fetchBanners(signal?: AbortSignal) {
  return (await api.get<BannersResponse>('/banners', { signal })).banners;
}

export const bannersQuery = () =>
  queryOptions({ queryKey: bannerKeys.all, queryFn: ({ signal }) => fetchBanners(signal) });
export const useBanners = () => useQuery(bannersQuery());

/** The back office's list and the home carousel (same query client in the shell) change together. */
export function refreshBanners(queryClient: QueryClient) {
  void queryClient.invalidateQueries({ queryKey: bannerKeys.all });
  void queryClient.invalidateQueries({ queryKey: bannerKeys.active });
}

/** The multipart form of POST /banners and POST /banners/{id}: fields and the optional image. */
export function saveBanner(id: number | null, form: FormData) {
  return api.post<BannerResponse>(id === null ? '/banners' : `/banners/${id}`, form);
}

export function useDeleteBanner(
  queryClient: QueryClient,
  handlers: { onSuccess: (message: string) => void; onError: (error: unknown) => void },
) {
  return useMutation({
    mutationFn: async (id: number) => (await api.delete<MessageResponse>(`/banners/${id}`)).message,
    onSuccess: (message) => {
      handlers.onSuccess(message);
      refreshBanners(queryClient);
    },
    onError: handlers.onError,
  });
}

/** POST /banners/reorder with the whole order (0, 1, 2…), applied at once to the cached list. */
export function useReorderBanners(
  queryClient: QueryClient,
  handlers: { onSuccess: () => void; onError: (error: unknown) => void },
) {
  return useMutation({
    mutationFn: (ordered: Banner[]) =>
      api.post<MessageResponse>('/banners/reorder', {
        banners: ordered.map((banner, order) => ({ id: banner.id, order })),
      }),
    onMutate: (ordered) => {
      const before = queryClient.getQueryData<Banner[]>(bannerKeys.all);
      queryClient.setQueryData<Banner[]>(
        bannerKeys.all,
        ordered.map((banner, order) => ({ ...banner, order })),
      );
      return { before };
    },
    onError: (error, _ordered, context) => {
      if (context?.before) queryClient.setQueryData(bannerKeys.all, context.before);
      handlers.onError(error);
    },
    onSuccess: handlers.onSuccess,
    onSettled: () => refreshBanners(queryClient),
  });
}
