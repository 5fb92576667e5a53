// Types only: the page must not load the contracts (and zod).
import type {
  ExchangeLeg,
  ExchangeOverview,
  ExchangeSuggestion,
  ExchangeSuggestionResponse,
  ExchangeWish,
  ExchangeWishRequest,
  ExchangeWishResponse,
  MessageResponse,
} from '@cartable/contracts';
import { ApiError, api } from '@cartable/ui';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';

/**
 * Exchange matching (services/catalog/API.md « Exchange matching »; shapes from
 * libs/contracts/src/exchanges.ts): the member's offers, wishes and suggestions.
 */
export type { ExchangeLeg, ExchangeOverview, ExchangeSuggestion, ExchangeWish };

export const exchangeKeys = { overview: ['exchanges', 'overview'] as const };

const noRetryOn4xx = (failures: number, error: unknown) =>
  !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failures < 2;

/** GET /exchanges: offers, wishes, suggestions. Polled gently while a suggestion waits for others. */
export const overviewQuery = () =>
  queryOptions({
    queryKey: exchangeKeys.overview,
    queryFn: ({ signal }) => api.get<ExchangeOverview>('/exchanges', { signal }),
    staleTime: 30_000,
    retry: noRetryOn4xx,
    refetchInterval: (query) =>
      query.state.data?.suggestions.some((s) => s.status === 'open' && s.my_answer === 'accepted') ? 30_000 : false,
  });

/** POST /exchanges/wishes: the new wish joins the overview (the matcher runs at once: refetch soon). */
export function useAddWish() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ExchangeWishRequest) => api.post<ExchangeWishResponse>('/exchanges/wishes', body),
    onSuccess: ({ wish }) => {
      queryClient.setQueryData<ExchangeOverview>(exchangeKeys.overview, (old) =>
        old ? { ...old, wishes: [...old.wishes.filter((w) => w.id !== wish.id), wish] } : old,
      );
      // The matcher answers a new wish at once: its suggestions show up a moment later.
      setTimeout(() => void queryClient.invalidateQueries({ queryKey: exchangeKeys.overview }), 1500);
    },
  });
}

/** DELETE /exchanges/wishes/{id}. */
export function useRemoveWish() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<MessageResponse>(`/exchanges/wishes/${id}`),
    onSuccess: (_data, id) => {
      queryClient.setQueryData<ExchangeOverview>(exchangeKeys.overview, (old) =>
        old ? { ...old, wishes: old.wishes.filter((w) => w.id !== id) } : old,
      );
      void queryClient.invalidateQueries({ queryKey: exchangeKeys.overview });
    },
  });
}

/** POST /exchanges/suggestions/{id}/accept | decline → { message, suggestion }. */
export function useAnswerSuggestion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, answer }: { id: string; answer: 'accept' | 'decline' }) =>
      api.post<ExchangeSuggestionResponse>(`/exchanges/suggestions/${id}/${answer}`),
    onSuccess: ({ suggestion }) => {
      queryClient.setQueryData<ExchangeOverview>(exchangeKeys.overview, (old) =>
        old
          ? {
              ...old,
              suggestions:
                suggestion.status === 'declined'
                  ? old.suggestions.filter((s) => s.id !== suggestion.id)
                  : old.suggestions.map((s) => (s.id === suggestion.id ? suggestion : s)),
            }
          : old,
      );
    },
    onError: () => void queryClient.invalidateQueries({ queryKey: exchangeKeys.overview }),
  });
}
