import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { refreshUnread, type ThreadPage, useMarkThreadRead } from '../api/conversations';

/**
 * Read receipts: the server marks the thread read when it is fetched; messages that arrive while
 * the thread is open and still come back unread are marked explicitly. Either way the header badge
 * and the list are refreshed. Returns the polite announcement of new messages.
 */
export function useReadReceipts(bookId: string, userId: string, newest: ThreadPage | undefined, otherName: string) {
  const queryClient = useQueryClient();
  const seen = useRef<Set<string> | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const { mutate: markRead } = useMarkThreadRead(bookId, userId);

  useEffect(() => {
    if (!newest) return;
    const incoming = newest.data.filter((m) => !m.is_mine);
    const first = seen.current === null;
    const known = seen.current ?? new Set<string>();
    const fresh = incoming.filter((m) => !known.has(String(m.id)));
    for (const m of newest.data) known.add(String(m.id));
    seen.current = known;
    if (fresh.length === 0 && !first) return;
    if (incoming.some((m) => !m.read_at)) markRead();
    else refreshUnread(queryClient);
    if (!first && fresh.length > 0) {
      const latest = fresh[fresh.length - 1];
      setAnnouncement(
        fresh.length === 1 && latest
          ? `Nouveau message de ${otherName} : ${latest.content}`
          : `${fresh.length} nouveaux messages de ${otherName}`,
      );
    }
  }, [newest, markRead, queryClient, otherName]);

  return announcement;
}
