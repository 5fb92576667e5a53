// Types only: the pages must not load the contracts (and zod); the checkout's form does.
import type {
  BoostedBook,
  Payment,
  PaymentChoice,
  PaymentDeclarationResponse,
  PaymentFollowResponse,
  PaymentInstructions,
  Plan,
  PlanListResponse,
  Refund,
  Subscription,
  SubscriptionChangeResponse,
  SubscriptionCheckoutResponse,
  SubscriptionDetail,
  SubscriptionDetailResponse,
  SubscriptionPage,
  SubscriptionStatus,
} from '@cartable/contracts';
import { API_BASE, ApiError, api, sessionStore } from '@cartable/ui';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { bookKeys } from '../../../shared/api/books';

/**
 * Subscriptions and payments (services/catalog/API.md « Subscriptions and payments »; shapes from
 * libs/contracts/src/subscriptions.ts): plans, checkout, the member's subscriptions, declaration
 * of a manual payment, the receipt.
 */
export type {
  BoostedBook,
  Payment,
  PaymentChoice,
  PaymentInstructions,
  Plan,
  PlanListResponse,
  Refund,
  Subscription,
  SubscriptionCheckoutResponse,
  SubscriptionDetail,
  SubscriptionStatus,
};

export const subscriptionKeys = {
  all: ['subscriptions'] as const,
  plans: ['subscriptions', 'plans'] as const,
  list: (filters: { status?: SubscriptionStatus; page: number }) => ['subscriptions', 'list', filters] as const,
  detail: (id: string) => ['subscriptions', 'detail', id] as const,
  payment: (id: string) => ['subscriptions', 'payment', id] as const,
};

const noRetryOn4xx = (failures: number, error: unknown) =>
  !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failures < 2;

/** GET /subscription-plans: the active plans by position, and the accepted payment providers. */
export const plansQuery = () =>
  queryOptions({
    queryKey: subscriptionKeys.plans,
    queryFn: async ({ signal }): Promise<PlanListResponse> => {
      const data = await api.get<Partial<PlanListResponse>>('/subscription-plans', { signal });
      return {
        data: Array.isArray(data?.data) ? data.data : [],
        providers: Array.isArray(data?.providers)
          ? data.providers
          : [{ name: 'manual', label: 'Déclaration manuelle' }],
      };
    },
    staleTime: 10 * 60_000,
  });

/** GET /subscriptions?status&page: the member's subscriptions, newest first. */
export const mySubscriptionsQuery = (filters: { status?: SubscriptionStatus; page: number }) =>
  queryOptions({
    queryKey: subscriptionKeys.list(filters),
    queryFn: ({ signal }) => api.get<SubscriptionPage>('/subscriptions', { query: { ...filters }, signal }),
    placeholderData: keepPreviousData,
  });

/** GET /subscriptions/{id}: payments with refunds, listings boosted now and before. */
export const subscriptionQuery = (id: string) =>
  queryOptions({
    queryKey: subscriptionKeys.detail(id),
    queryFn: async ({ signal }) =>
      (await api.get<SubscriptionDetailResponse>(`/subscriptions/${encodeURIComponent(id)}`, { signal })).subscription,
    retry: noRetryOn4xx,
  });

/** GET /payments/{id}: one payment as it stands, with the instructions the member was given. */
export const paymentFollowQuery = (id: string) =>
  queryOptions({
    queryKey: subscriptionKeys.payment(id),
    queryFn: ({ signal }) => api.get<PaymentFollowResponse>(`/payments/${encodeURIComponent(id)}`, { signal }),
    retry: noRetryOn4xx,
  });

export interface CheckoutVariables {
  /** Renewing this subscription; otherwise a new one from plan_id (and book_id for a boost). */
  renewOf?: string;
  plan_id: number;
  book_id?: number;
  choice: PaymentChoice;
  key: string;
}

/** POST /subscriptions (Idempotency-Key) or POST /subscriptions/{id}/renew: what to pay and how. */
export function useCheckout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ renewOf, plan_id, book_id, choice, key }: CheckoutVariables) =>
      renewOf
        ? api.post<SubscriptionCheckoutResponse>(`/subscriptions/${encodeURIComponent(renewOf)}/renew`, choice, {
            idempotencyKey: key,
          })
        : api.post<SubscriptionCheckoutResponse>(
            '/subscriptions',
            { ...choice, plan_id, ...(book_id ? { book_id } : {}) },
            { idempotencyKey: key },
          ),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: subscriptionKeys.all }),
  });
}

/** POST /payments/{id}/declaration: the member says they paid (manual) → submitted. */
export function useDeclarePayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      paymentId,
      body,
    }: {
      paymentId: string;
      body: { operator: string; transaction_reference: string; payer_phone: string };
    }) => api.post<PaymentDeclarationResponse>(`/payments/${encodeURIComponent(paymentId)}/declaration`, body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: subscriptionKeys.all }),
  });
}

/** PUT /subscriptions/{id}/books: the listings an active member plan boosts. */
export function useSetSubscriptionBooks() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, bookIds }: { id: string; bookIds: number[] }) =>
      api.put<SubscriptionChangeResponse>(`/subscriptions/${encodeURIComponent(id)}/books`, { book_ids: bookIds }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: subscriptionKeys.all });
      void queryClient.invalidateQueries({ queryKey: bookKeys.featured });
    },
  });
}

/** POST /boosted-books/{id}/transfer: a boost whose listing changed owner moves to another listing. */
export function useTransferBoost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ boostId, bookId }: { boostId: string; bookId: number }) =>
      api.post<SubscriptionChangeResponse>(`/boosted-books/${encodeURIComponent(boostId)}/transfer`, {
        book_id: bookId,
      }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: subscriptionKeys.all });
      void queryClient.invalidateQueries({ queryKey: bookKeys.featured });
    },
  });
}

/**
 * GET /api/payments/{id}/receipt as a PDF: fetched with the session's bearer (a plain link cannot
 * send it) and saved under the payment's reference.
 */
export async function downloadReceipt(payment: Pick<Payment, 'id' | 'reference'>): Promise<void> {
  const token = sessionStore.getState().token;
  let response: Response;
  try {
    response = await fetch(`${API_BASE}/payments/${encodeURIComponent(payment.id)}/receipt`, {
      headers: { Accept: 'application/pdf', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError(0, 'Erreur de connexion. Vérifiez votre connexion internet et réessayez.');
  }
  if (!response.ok) {
    let message = 'Le reçu n’a pas pu être téléchargé.';
    try {
      const body = (await response.json()) as { message?: string };
      if (body?.message) message = body.message;
    } catch {
      // not JSON
    }
    throw new ApiError(response.status, message, { hasServerMessage: true });
  }
  const blob = await response.blob();
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `recu-${payment.reference}.pdf`;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
