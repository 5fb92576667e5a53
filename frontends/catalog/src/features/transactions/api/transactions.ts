import type { TransactionActionResponse, TransactionList, TransactionStatus } from '@cartable/contracts';
import { api } from '@cartable/ui';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { type Role, transactionKeys } from '../../../entities/transaction/api/transactions';
import { bookKeys } from '../../../shared/api/books';

/** The member's deals: the list, and what a party does with a deal. */
export type TransactionAction = 'confirm' | 'decline' | 'cancel';

/** GET /transactions?role&status&page. */
export const transactionsQuery = (filters: { role?: Role; status?: TransactionStatus; page: number }) =>
  queryOptions({
    queryKey: transactionKeys.list(filters),
    queryFn: ({ signal }) =>
      api.get<TransactionList>('/transactions', {
        query: { role: filters.role, status: filters.status, page: filters.page },
        signal,
      }),
    placeholderData: keepPreviousData,
  });

/** POST /transactions/{id}/confirm|decline|cancel: the deal, the lists and the counts refresh; a sale changes books. */
export function useTransactionAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: TransactionAction }) =>
      api.post<TransactionActionResponse>(`/transactions/${encodeURIComponent(id)}/${action}`, {}),
    onSuccess: (data, { id, action }) => {
      queryClient.setQueryData(transactionKeys.detail(id), data.transaction);
      void queryClient.invalidateQueries({ queryKey: transactionKeys.all });
      if (action === 'confirm') void queryClient.invalidateQueries({ queryKey: bookKeys.all });
    },
  });
}
