import { cn } from '../cn';

/** Grey placeholder block while content loads (decorative). */
export function Skeleton({ className }: { className?: string }) {
  return <div aria-hidden="true" className={cn('animate-pulse rounded-md bg-slate-200', className)} />;
}
