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

export { REPORT_REASON_LABELS as REASON_LABELS } from '@cartable/contracts/labels';
/**
 * « Signalements »: reports waiting in moderation's queue (services/moderation/API.md). A decision
 * is one call: moderation records it on every open report of the target and has it applied by the
 * service that owns it (catalog hides a listing, auth deactivates an account, moderation rejects a
 * comment itself). Reports whose action another service applies read « Action en cours » until
 * it is done.
 */
export type { Report, ReportDecision, ReportStatus, ReportTargetType };
export const TARGET_LABELS: Record<ReportTargetType, string> = {
  book: 'Annonce',
  user: 'Membre',
  comment: 'Commentaire',
  message: 'Message',
};
export { reportStatusLabels as STATUS_LABELS } from '@cartable/contracts/labels';
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

/** One call: the decision and its action, or neither. */
function decide({ report, decision, note }: Decision): Promise<ReportResolveResponse> {
  return api.post<ReportResolveResponse>(`/admin/reports/${report.id}/resolve`, {
    decision,
    ...(note ? { note } : {}),
  });
}

export function useDecision(handlers: {
  onSuccess: (answer: ReportResolveResponse) => void;
  onError: (error: unknown) => void;
}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: decide,
    onSuccess: (answer) => {
      handlers.onSuccess(answer);
      void queryClient.invalidateQueries({ queryKey: flagKeys.all });
      void queryClient.invalidateQueries({ queryKey: ['admin', 'stats'] });
    },
    onError: (error) => {
      handlers.onError(error);
      // Another administrator may have decided meanwhile: show the queue as it is now.
      void queryClient.invalidateQueries({ queryKey: flagKeys.all });
    },
  });
}
