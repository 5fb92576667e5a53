import { Badge } from '@cartable/ui';
import { type ReactNode, useId } from 'react';

/** A titled part of « Échanges », with how many it holds. */
export function Section({ title, count, children }: { title: string; count?: number; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className="flex items-center gap-2 text-lg font-semibold text-slate-900">
        {title}
        {count !== undefined ? <Badge tone="neutral">{count}</Badge> : null}
      </h2>
      <div className="mt-3">{children}</div>
    </section>
  );
}
