import type { RatingList, RatingResponse, Review } from '@cartable/contracts';
import { api, queryKeys } from '@cartable/ui';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { bookKeys } from '../../../shared/api/books';

/** Ratings after a confirmed deal (services/catalog/API.md "Ratings"). */
export type { RatingList, Review };
export type Direction = 'received' | 'given';

export const ratingKeys = {
  all: ['ratings'] as const,
  mine: (direction: Direction, page: number) => ['ratings', 'mine', direction, page] as const,
};

/** GET /ratings/mine?direction&page. */
export const myRatingsQuery = (direction: Direction, page: number) =>
  queryOptions({
    queryKey: ratingKeys.mine(direction, page),
    queryFn: ({ signal }) => api.get<RatingList>('/ratings/mine', { query: { direction, page }, signal }),
    placeholderData: keepPreviousData,
  });

/**
 * POST /ratings (with an Idempotency-Key) or PUT /ratings/{id}: the deal, the ratings and the
 * book pages (the seller's average) refresh.
 */
export function useSaveRating() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id?: string; transactionId: string; rating: number; comment: string; key: string }) =>
      input.id
        ? api.put<RatingResponse>(`/ratings/${encodeURIComponent(input.id)}`, {
            rating: input.rating,
            comment: input.comment,
          })
        : api.post<RatingResponse>(
            '/ratings',
            { transaction_id: input.transactionId, rating: input.rating, comment: input.comment },
            { idempotencyKey: input.key },
          ),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.transactions.all });
      void queryClient.invalidateQueries({ queryKey: ratingKeys.all });
      void queryClient.invalidateQueries({ queryKey: bookKeys.all });
    },
  });
}
