import type { BlockStatusResponse, MessageResponse, ReportCreatedResponse, ReportReason } from '@cartable/contracts';
import { LISTING_ONLY_REPORT_REASONS, REPORT_REASON_LABELS, reportReasons } from '@cartable/contracts/labels';
import { api } from '@cartable/ui';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

/**
 * « Signaler » and « Bloquer »: listings, members and
 * comments are reported to moderation (POST /reports), a received message to messaging
 * (POST /messages/{id}/report), which checks it was received; blocks live in messaging.
 */
export type ReportTarget =
  | { type: 'book'; id: number }
  | { type: 'user'; id: string }
  | { type: 'comment'; id: string }
  | { type: 'message'; id: string };

/** The reasons a member may give for this kind of target, as the server accepts them. */
export const reasonsFor = (type: ReportTarget['type']): Array<{ value: ReportReason; label: string }> =>
  reportReasons
    .filter((reason) => type === 'book' || !LISTING_ONLY_REPORT_REASONS.includes(reason))
    .map((value) => ({ value, label: REPORT_REASON_LABELS[value] }));

export function sendReport(target: ReportTarget, body: { reason: ReportReason; details?: string }) {
  if (target.type === 'message') return api.post<MessageResponse>(`/messages/${target.id}/report`, body);
  return api.post<ReportCreatedResponse>('/reports', {
    target_type: target.type,
    target_id: String(target.id),
    ...body,
  });
}

export const blockKeys = { status: (userId: string) => ['blocks', userId] as const };

export const useBlockStatus = (userId: string, enabled: boolean) =>
  useQuery({
    queryKey: blockKeys.status(userId),
    queryFn: ({ signal }) => api.get<BlockStatusResponse>(`/blocks/${userId}`, { signal }),
    enabled,
  });

export function useBlockChange(
  userId: string,
  handlers: { onSuccess: (message: string) => void; onError: (error: unknown) => void },
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (block: boolean) =>
      (block
        ? await api.post<MessageResponse>('/blocks', { user_id: userId })
        : await api.delete<MessageResponse>(`/blocks/${userId}`)
      ).message,
    onSuccess: async (message) => {
      handlers.onSuccess(message);
      await queryClient.invalidateQueries({ queryKey: blockKeys.status(userId) });
      // The member's contact details on book pages change with it.
      await queryClient.invalidateQueries({ queryKey: ['books'] });
    },
    onError: handlers.onError,
  });
}

/** « Signaler »: sends the report; the button says what happened. */
export const useSendReport = (
  target: ReportTarget,
  handlers: { onSuccess: (answer: { message: string }) => void; onError: (error: unknown) => void },
) =>
  useMutation({
    mutationFn: (body: { reason: ReportReason; details?: string }) => sendReport(target, body),
    ...handlers,
  });
