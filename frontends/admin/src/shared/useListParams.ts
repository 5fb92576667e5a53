import { useSearchParams } from '@cartable/ui/router';
import { useCallback } from 'react';

/**
 * A list's filters, sort and page kept in the URL (shareable, survive a reload, Back works).
 * `update` sets or removes several parameters at once; any change but the page's own goes back to
 * page 1.
 */
export function useListParams() {
  const [params, setParams] = useSearchParams();
  const update = useCallback(
    (changes: Record<string, string | number | null | undefined>) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [name, value] of Object.entries(changes)) {
            if (value === null || value === undefined || value === '') next.delete(name);
            else next.set(name, String(value));
          }
          if (!('page' in changes)) next.delete('page');
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  const page = Math.max(1, Number(params.get('page')) || 1);
  return { params, update, page };
}
