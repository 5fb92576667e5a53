import type { AlertChannelsRequest, AlertChannelsResponse, PhoneResponse } from '@cartable/contracts';
import { api } from '@cartable/ui';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

/** The member's alert phone and the channels of each kind of alert (notifications service). */
export const alertChannelsQuery = (userId: string) =>
  queryOptions({
    queryKey: ['alert-channels', userId] as const,
    queryFn: ({ signal }) => api.get<AlertChannelsResponse>('/notifications/channels', { signal }),
  });

export const useAlertChannels = (userId: string) =>
  useQuery({ ...alertChannelsQuery(userId), enabled: Boolean(userId) });

/** PUT /notifications/channels: a box saves at once; the answer replaces the cached settings. */
export function useSaveAlertChannels(
  userId: string,
  handlers: { onSuccess: (answer: AlertChannelsResponse) => void; onError: (error: unknown) => void },
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: AlertChannelsRequest) => api.put<AlertChannelsResponse>('/notifications/channels', change),
    onSuccess: (answer) => {
      client.setQueryData(alertChannelsQuery(userId).queryKey, answer);
      handlers.onSuccess(answer);
    },
    onError: handlers.onError,
  });
}

/** The phone's three calls; each answer carries the phone as it now is. */
export const alertPhone = {
  requestCode: (number: string) => api.post<PhoneResponse>('/notifications/phone', { number }),
  verify: (code: string) => api.post<PhoneResponse>('/notifications/phone/verify', { code }),
  remove: () => api.delete<PhoneResponse>('/notifications/phone'),
};
