import type { AlertMailKind, AlertUnsubscribeInfo, AlertUnsubscribeResponse } from '@cartable/contracts';
import { ALERTS_UNSUBSCRIBE_PATH } from '@cartable/contracts/labels';
import { api } from '@cartable/ui';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';

/** The alert mails' links (notifications service, no login: the token is the proof). */
const unsubscribeKey = (token: string, kind: string) => ['alert-unsubscribe', token, kind] as const;

/** GET: which alerts the link stops, and whether they still come. */
export const unsubscribeInfoQuery = (token: string, kind: string) =>
  queryOptions({
    queryKey: unsubscribeKey(token, kind),
    queryFn: ({ signal }) => api.get<AlertUnsubscribeInfo>(ALERTS_UNSUBSCRIBE_PATH, { query: { token, kind }, signal }),
    enabled: token !== '' && kind !== '',
    retry: false,
  });

/** POST: stops them; the page then shows the answer. */
export function useUnsubscribe(token: string, kind: AlertMailKind | string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () =>
      api.post<AlertUnsubscribeResponse>(ALERTS_UNSUBSCRIBE_PATH, undefined, { query: { token, kind } }),
    onSuccess: (answer) => client.setQueryData(unsubscribeKey(token, kind), answer),
  });
}
