import type { AllNoticesReadResponse, NoticeReadResponse } from '@cartable/contracts';
import { api, noticesPageQuery, queryKeys } from '@cartable/ui';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

/**
 * The member's notices (notifications service): a page of them, reading one or all. The queries'
 * keys are libs/ui's (the header's bell reads them).
 */
export const useNoticesPage = (userId: string, page: number) =>
  useQuery({ ...noticesPageQuery(userId, page), enabled: Boolean(userId) });

/** After a read, the page and the bell's count are asked for again. */
function useRefreshNotices() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: queryKeys.notices.all });
}

/** POST /notifications/{id}/read. */
export function useMarkNoticeRead() {
  const refresh = useRefreshNotices();
  return useMutation({
    mutationFn: (id: string) => api.post<NoticeReadResponse>(`/notifications/${encodeURIComponent(id)}/read`),
    onSettled: refresh,
  });
}

/** POST /notifications/read-all. */
export function useMarkAllNoticesRead(handlers: {
  onSuccess: (answer: AllNoticesReadResponse) => void;
  onError: (error: unknown) => void;
}) {
  const refresh = useRefreshNotices();
  return useMutation({
    mutationFn: () => api.post<AllNoticesReadResponse>('/notifications/read-all'),
    ...handlers,
    onSettled: refresh,
  });
}
