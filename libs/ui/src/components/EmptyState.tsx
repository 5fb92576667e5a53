import type { ReactNode } from 'react';
import { cn } from '../cn';

export interface EmptyStateProps {
  icon?: ReactNode;
  title: ReactNode;
  description?: ReactNode;
  action?: ReactNode;
  /** Colour of the icon badge: neutral green, or amber for a problem. */
  tone?: 'primary' | 'warning';
  /** 1 when the state is the whole page (« Transaction introuvable »): its title is the page's heading. */
  headingLevel?: 1 | 2;
  className?: string;
}

export function EmptyState({
  icon,
  title,
  description,
  action,
  tone = 'primary',
  headingLevel = 2,
  className,
}: EmptyStateProps) {
  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  return (
    <div
      className={cn(
        'flex flex-col items-center justify-center rounded-xl border border-dashed border-slate-300 bg-white px-6 py-12 text-center',
        className,
      )}
    >
      {icon ? (
        <div
          className={cn(
            'mb-4 flex h-14 w-14 items-center justify-center rounded-full',
            tone === 'warning' ? 'bg-accent-100 text-accent-800' : 'bg-primary-50 text-primary-700',
          )}
        >
          {icon}
        </div>
      ) : null}
      <Heading className="text-lg font-semibold text-slate-900">{title}</Heading>
      {description ? <p className="mt-2 max-w-md text-sm text-slate-600">{description}</p> : null}
      {action ? <div className="mt-6 flex flex-wrap justify-center gap-3">{action}</div> : null}
    </div>
  );
}
