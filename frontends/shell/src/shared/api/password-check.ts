import type { PasswordCheckResponse } from '@cartable/contracts';
import { isFamiliarPassword } from '@cartable/contracts/password';
import { api } from '@cartable/ui';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';

/** How long typing must pause before the server is asked about the big list. */
const SETTLE_MS = 400;

/**
 * True when the server would refuse the password as one everybody tries: the French favourites
 * are known here at once; the 49,000 of the big list are asked of auth once typing pauses.
 */
export function useCommonPassword(password: string): boolean {
  const familiar = isFamiliarPassword(password);
  const [settled, setSettled] = useState(password);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(password), SETTLE_MS);
    return () => clearTimeout(timer);
  }, [password]);
  const check = useQuery({
    queryKey: ['password-check', settled],
    queryFn: ({ signal }) => api.post<PasswordCheckResponse>('/password-check', { password: settled }, { signal }),
    enabled: !familiar && settled === password && password.length >= 8,
    staleTime: Number.POSITIVE_INFINITY,
    // A password is not kept in memory longer than the form needs it.
    gcTime: 30_000,
    retry: false,
  });
  return familiar || (settled === password && check.data?.common === true);
}
