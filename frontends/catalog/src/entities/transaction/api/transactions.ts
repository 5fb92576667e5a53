// Types only here: the lists must not load the contracts (and zod); the dialog's form does.
import type {
  BookListResponse,
  CreateTransactionRequest,
  Transaction,
  TransactionActionResponse,
  TransactionCandidate,
  TransactionCandidatesResponse,
  TransactionResponse,
  TransactionStatus,
} from '@cartable/contracts';
import { ApiError, api, queryKeys } from '@cartable/ui';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';

/**
 * A deal between two members (services/catalog/API.md "Transactions"; shapes from
 * libs/contracts/src/deals.ts): its keys, one deal, and « Conclure », which a conversation and
 * « Mes manuels » offer as well as the deals' own pages.
 */
export type { Transaction, TransactionCandidate, TransactionStatus };
export type Role = 'seller' | 'buyer';

export const transactionKeys = {
  all: queryKeys.transactions.all,
  list: (filters: { role?: Role; status?: TransactionStatus; page: number }) =>
    ['transactions', 'list', filters] as const,
  detail: (id: string) => ['transactions', 'detail', id] as const,
  candidates: (bookId: number) => ['transactions', 'candidates', bookId] as const,
  pendingCount: queryKeys.transactions.pendingCount,
};

const noRetryOn4xx = (failures: number, error: unknown) =>
  !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failures < 2;

/** GET /transactions/{id}: 404 for anyone but its two parties. */
export const transactionQuery = (id: string) =>
  queryOptions({
    queryKey: transactionKeys.detail(id),
    queryFn: async ({ signal }) =>
      (await api.get<TransactionResponse>(`/transactions/${encodeURIComponent(id)}`, { signal })).transaction,
    retry: noRetryOn4xx,
  });

/** GET /transactions/candidates?book_id: who wrote to the owner about the listing. */
export const candidatesQuery = (bookId: number) =>
  queryOptions({
    queryKey: transactionKeys.candidates(bookId),
    queryFn: async ({ signal }) =>
      (
        await api.get<TransactionCandidatesResponse>('/transactions/candidates', {
          query: { book_id: bookId },
          signal,
        })
      ).data,
    retry: noRetryOn4xx,
  });

/** The other member's listings still available, for an exchange. */
export const memberBooksQuery = (userId: string) =>
  queryOptions({
    queryKey: ['books', 'member', userId] as const,
    queryFn: async ({ signal }) =>
      (await api.get<BookListResponse>('/users/profile/books', { query: { user_id: userId }, signal })).data,
  });

/** POST /transactions with an Idempotency-Key (a retried tap records one deal). */
export function useProposeTransaction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, key }: { body: CreateTransactionRequest; key: string }) =>
      api.post<TransactionActionResponse>('/transactions', body, { idempotencyKey: key }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: transactionKeys.all }),
  });
}
