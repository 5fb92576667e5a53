import type {
  AdminPaymentDetail,
  AdminPaymentDetailResponse,
  AdminPaymentListQuery,
  AdminPaymentPage,
  MonthlyRevenue,
  PaymentActionResponse,
} from '@cartable/contracts';
import { ApiError, api } from '@cartable/ui';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

/** Payments in the back office (payments.manage): list with totals per month, detail, validate, reject, refund. */
export type { AdminPaymentDetail, AdminPaymentPage, MonthlyRevenue };

export const paymentKeys = {
  all: ['admin', 'payments'] as const,
  list: (query: AdminPaymentListQuery) => ['admin', 'payments', 'list', query] as const,
  detail: (id: string) => ['admin', 'payments', 'detail', id] as const,
};

export const usePayments = (query: AdminPaymentListQuery) =>
  useQuery({
    queryKey: paymentKeys.list(query),
    queryFn: ({ signal }) =>
      api.get<AdminPaymentPage>('/admin/payments', {
        query: { ...query } as Record<string, string | number | undefined>,
        signal,
      }),
    placeholderData: keepPreviousData,
  });

export const usePayment = (id: string) =>
  useQuery({
    queryKey: paymentKeys.detail(id),
    queryFn: async ({ signal }) =>
      (await api.get<AdminPaymentDetailResponse>(`/admin/payments/${encodeURIComponent(id)}`, { signal })).payment,
    retry: (failures, error) =>
      !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failures < 2,
  });

export type PaymentAction =
  | { kind: 'validate' }
  | { kind: 'reconcile' }
  | { kind: 'reject'; reason: string }
  | { kind: 'refund'; reason: string; amount?: number };

/** POST /admin/payments/{id}/validate | reconcile | reject | refunds: the answer's payment replaces the cached one. */
export function usePaymentAction(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: PaymentAction) => {
      const path = `/admin/payments/${encodeURIComponent(id)}`;
      if (action.kind === 'validate') return api.post<PaymentActionResponse>(`${path}/validate`, {});
      if (action.kind === 'reconcile') return api.post<PaymentActionResponse>(`${path}/reconcile`, {});
      if (action.kind === 'reject') return api.post<PaymentActionResponse>(`${path}/reject`, { reason: action.reason });
      return api.post<PaymentActionResponse>(`${path}/refunds`, {
        reason: action.reason,
        ...(action.amount ? { amount: action.amount } : {}),
      });
    },
    onSuccess: (answer) => {
      if (answer?.payment) queryClient.setQueryData(paymentKeys.detail(id), answer.payment);
      void queryClient.invalidateQueries({ queryKey: paymentKeys.all });
      void queryClient.invalidateQueries({ queryKey: ['admin', 'subscriptions'] });
      void queryClient.invalidateQueries({ queryKey: ['admin', 'stats'] });
    },
  });
}
