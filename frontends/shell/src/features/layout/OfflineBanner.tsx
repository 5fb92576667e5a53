import { forgetOfflineAnswers, seenAgo, useOfflineState } from '@cartable/ui';
import { useLocation } from '@cartable/ui/router';
import { useEffect, useState } from 'react';

/**
 * Under the header while the page shows what the phone kept (« Hors ligne, vu il y a 12
 * minutes ») or while the browser has no network at all. The age is read again each minute.
 */
export function OfflineBanner() {
  const { pathname } = useLocation();
  const { online, seenAt } = useOfflineState();
  const [now, setNow] = useState(() => Date.now());

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new page only
  useEffect(() => {
    forgetOfflineAnswers();
  }, [pathname]);

  useEffect(() => {
    if (seenAt === null) return;
    setNow(Date.now());
    const timer = window.setInterval(() => setNow(Date.now()), 60_000);
    return () => window.clearInterval(timer);
  }, [seenAt]);

  if (online && seenAt === null) return null;
  return (
    <div
      role="status"
      className="border-b border-accent-300 bg-accent-100 px-4 py-2 text-center text-sm text-accent-900"
    >
      <strong>Hors ligne</strong>
      {seenAt !== null
        ? ` · vu ${seenAgo(seenAt, now)} : ces informations peuvent avoir changé.`
        : ' · les pages déjà ouvertes sur ce téléphone restent lisibles.'}
    </div>
  );
}
