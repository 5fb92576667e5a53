import type { NotificationPreferences, NotificationPreferencesResponse } from '@cartable/contracts';
import { api, notificationPreferencesQuery } from '@cartable/ui';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

/** What the member wants to be told by e-mail (notifications service). */
export const useNotificationPreferences = (userId: string) =>
  useQuery({ ...notificationPreferencesQuery(userId), enabled: Boolean(userId) });

/** PUT /notifications/preferences: a box saves at once; the answer replaces the cached preferences. */
export function useSavePreferences(
  userId: string,
  handlers: { onSuccess: (answer: NotificationPreferencesResponse) => void; onError: (error: unknown) => void },
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: Partial<NotificationPreferences>) =>
      api.put<NotificationPreferencesResponse>('/notifications/preferences', change),
    onSuccess: (answer) => {
      client.setQueryData(notificationPreferencesQuery(userId).queryKey, { preferences: answer.preferences });
      handlers.onSuccess(answer);
    },
    onError: handlers.onError,
  });
}
