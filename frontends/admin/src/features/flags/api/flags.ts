// Types only: the list must not load the contracts (and zod).
import type {
  Report,
  ReportDecision,
  ReportListResponse,
  ReportResolveResponse,
  ReportStatus,
  ReportTargetType,
} from '@cartable/contracts';
import { api } from '@cartable/ui';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

/**
 * « Signalements »: reports waiting in moderation's queue (services/moderation/API.md). Acting on
 * one is two calls: the owning service's action (catalog hides a listing, moderation rejects a
 * comment, auth deactivates an account), then the decision recorded on the report, which
 * closes every open report of the same target.
 */
export type { Report, ReportDecision, ReportStatus, ReportTargetType };

export const REASON_LABELS: Record<Report['reason'], string> = {
  arnaque: 'Arnaque',
  contenu_inapproprie: 'Contenu inapproprié',
  deja_vendu: 'Manuel déjà vendu',
  doublon: 'Doublon',
  autre: 'Autre',
};
export const TARGET_LABELS: Record<ReportTargetType, string> = {
  book: 'Annonce',
  user: 'Membre',
  comment: 'Commentaire',
  message: 'Message',
};
export const STATUS_LABELS: Record<ReportStatus, string> = {
  open: 'À traiter',
  dismissed: 'Classé sans suite',
  actioned: 'Traité',
};
export const DECISION_LABELS: Record<ReportDecision, string> = {
  dismissed: 'Classé sans suite',
  hidden: 'Contenu masqué',
  warned: 'Membre averti',
  deactivated: 'Compte désactivé',
};

export const flagKeys = {
  all: ['admin', 'flags'] as const,
  list: (query: FlagQuery) => ['admin', 'flags', 'list', query] as const,
};

export interface FlagQuery {
  status?: ReportStatus | '';
  target_type?: ReportTargetType | '';
  page: number;
  per_page?: number;
}

export const flagsQuery = (query: FlagQuery) =>
  queryOptions({
    queryKey: flagKeys.list(query),
    queryFn: ({ signal }) => api.get<ReportListResponse>('/admin/reports', { query: { ...query }, signal }),
    placeholderData: keepPreviousData,
  });
export const useFlags = (query: FlagQuery) => useQuery(flagsQuery(query));

export interface Decision {
  report: Report;
  decision: ReportDecision;
  /** Told to the member (hiding a listing, deactivating) and kept on the report. */
  note: string;
}

/** The owning service's action first; then the report's decision. */
async function decide({ report, decision, note }: Decision): Promise<string> {
  if (decision === 'hidden') {
    if (report.target_type === 'book') await api.post(`/admin/books/${report.target_id}/hide`, { reason: note });
    else if (report.target_type === 'comment')
      await api.patch(`/admin/comments/${report.target_id}/moderate`, { status: 'rejected' });
  }
  if (decision === 'deactivated' && report.target_owner_id) {
    await api.post(`/admin/users/${report.target_owner_id}/deactivate`, { reason: note });
  }
  const answer = await api.post<ReportResolveResponse>(`/admin/reports/${report.id}/resolve`, {
    decision,
    ...(note ? { note } : {}),
  });
  return answer.message;
}

export function useDecision(handlers: { onSuccess: (message: string) => void; onError: (error: unknown) => void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: decide,
    onSuccess: (message) => {
      handlers.onSuccess(message);
      void queryClient.invalidateQueries({ queryKey: flagKeys.all });
      void queryClient.invalidateQueries({ queryKey: ['admin', 'stats'] });
    },
    onError: (error) => {
      handlers.onError(error);
      // The first call may have gone through: show the queue as it is now.
      void queryClient.invalidateQueries({ queryKey: flagKeys.all });
    },
  });
}
