import { Button, cancelWrite, notify, seenAgo, usePendingWrites } from '@cartable/ui';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';

/**
 * « En attente d'envoi »: the writes made without network, kept on this phone until it returns,
 * each with « Annuler »; and a word when each is sent (the pages then read again) or refused.
 */
export function PendingWrites() {
  const queryClient = useQueryClient();
  const onSent = useCallback(
    (label: string) => {
      void notify.success(`Envoyé : ${label}`);
      void queryClient.invalidateQueries();
    },
    [queryClient],
  );
  const onRefused = useCallback((label: string, message: string) => {
    void notify.error(`Non envoyé : ${label}.${message ? ` ${message}` : ''}`);
  }, []);
  const news = useMemo(() => ({ onSent, onRefused }), [onSent, onRefused]);
  const writes = usePendingWrites(news);

  if (writes.length === 0) return null;
  return (
    <section
      aria-labelledby="en-attente"
      className="border-b border-ocean-200 bg-ocean-50 px-4 py-2 text-sm text-ocean-900"
      data-testid="pending-writes"
    >
      <h2 id="en-attente" className="font-semibold">
        En attente d’envoi ({writes.length}) : partira au retour de la connexion
      </h2>
      <ul className="mt-1 space-y-1">
        {writes.map((write) => (
          <li key={write.id} className="flex flex-wrap items-center justify-between gap-2">
            <span className="min-w-0 [overflow-wrap:anywhere]">
              {write.label} <span className="text-ocean-700">· {seenAgo(write.queuedAt)}</span>
            </span>
            <Button size="sm" variant="outline" onClick={() => cancelWrite(write.id)}>
              Annuler
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}
