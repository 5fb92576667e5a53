import { cn } from '../cn';

export interface SpinnerProps {
  size?: 'sm' | 'md' | 'lg';
  /** Accessible label; null when the surrounding text already says it. */
  label?: string | null;
  className?: string;
}

const SIZES = { sm: 'h-4 w-4 border-2', md: 'h-6 w-6 border-2', lg: 'h-10 w-10 border-[3px]' };

export function Spinner({ size = 'md', label = 'Chargement…', className }: SpinnerProps) {
  return (
    <span role={label ? 'status' : undefined} className={cn('inline-flex items-center', className)}>
      <span
        aria-hidden="true"
        className={cn('animate-spin rounded-full border-current border-t-transparent', SIZES[size])}
      />
      {label ? <span className="sr-only">{label}</span> : null}
    </span>
  );
}

/** Centered spinner for a loading page or section. */
export function PageSpinner({ label = 'Chargement…' }: { label?: string }) {
  return (
    <div className="flex min-h-[40vh] items-center justify-center text-primary-700">
      <Spinner size="lg" label={label} />
    </div>
  );
}
