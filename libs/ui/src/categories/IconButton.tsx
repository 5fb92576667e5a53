import { cn } from '@cartable/ui';
import type { ReactNode } from 'react';

/** A small square icon button of the hierarchy tree's rows (the manager's and the back office's actions). */
export function IconButton({
  label,
  onClick,
  children,
  tone = 'neutral',
  disabled,
}: {
  label: string;
  onClick: () => void;
  children: ReactNode;
  tone?: 'neutral' | 'danger';
  disabled?: boolean;
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      aria-label={label}
      title={label}
      disabled={disabled}
      className={cn(
        'flex h-8 w-8 items-center justify-center rounded-md disabled:opacity-50',
        tone === 'danger' ? 'text-red-600 hover:bg-red-50' : 'text-slate-600 hover:bg-slate-200',
      )}
    >
      {children}
    </button>
  );
}
