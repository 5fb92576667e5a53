import type { Captcha, ContactRequest, MessageResponse } from '@cartable/contracts';
import { api } from '@cartable/ui';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';

/** The contact page's calls (services/moderation/API.md "Contact"). */

export const captchaKey = ['contact', 'captcha'] as const;

/** GET /contact/captcha: a question is valid once, for 15 minutes; never reused from the cache. */
export const captchaQuery = () =>
  queryOptions({
    queryKey: captchaKey,
    queryFn: ({ signal }) => api.get<Captcha>('/contact/captcha', { signal }),
    staleTime: 10 * 60_000,
    gcTime: 0,
    refetchOnWindowFocus: false,
  });

export const useCaptcha = () => useQuery(captchaQuery());

/** POST /contact, one Idempotency-Key per submission. */
export function sendContact(body: ContactRequest, idempotencyKey: string) {
  return api.post<MessageResponse>('/contact', body, { idempotencyKey });
}

/** A new question (each is valid once): the next read of GET /contact/captcha. */
export function useNewCaptcha() {
  const queryClient = useQueryClient();
  return () => void queryClient.refetchQueries({ queryKey: captchaKey });
}
