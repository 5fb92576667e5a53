import { Button } from '@cartable/ui';
import type { ReactNode } from 'react';

/** « Réessayer » of a card whose read failed. */
export function Retry({ onRetry, loading }: { onRetry: () => void; loading: boolean }) {
  return (
    <Button variant="outline" size="sm" onClick={onRetry} loading={loading}>
      Réessayer
    </Button>
  );
}

/** One labelled value of a card (a term and its description). */
export function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium text-slate-500">{label}</dt>
      <dd className="text-sm break-words text-slate-900">{children}</dd>
    </div>
  );
}
