import type { PendingCountResponse } from '@cartable/contracts';
import { api, queryKeys } from '@cartable/ui';
import { queryOptions } from '@tanstack/react-query';

/** The deals' count is asked again this often while a page is open. */
export const PENDING_DEALS_POLL_MS = 60_000;

/**
 * GET /transactions/pending-count: the deals awaiting the member's answer (shown on the user
 * menu's « Transactions » entry and on /dashboard). The catalog remote's deal screens invalidate
 * `queryKeys.transactions.all`, which refreshes it.
 */
export const pendingDealsQuery = (userId: string | undefined) =>
  queryOptions({
    queryKey: queryKeys.transactions.pendingCount(userId),
    queryFn: async ({ signal }) =>
      (await api.get<PendingCountResponse>('/transactions/pending-count', { signal })).count,
    refetchInterval: PENDING_DEALS_POLL_MS,
    enabled: Boolean(userId),
    retry: false,
  });
