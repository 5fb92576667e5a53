import type { ReactNode } from 'react';
import { errorMessage } from '../api/client';
import { RefreshIcon } from '../icons';
import { Alert } from './Alert';
import { Button } from './Button';

/** What LoadFailed needs of a query (TanStack Query's result has it). */
export interface RetryableRead {
  error: unknown;
  isFetching: boolean;
  refetch: () => unknown;
}

export interface LoadFailedProps {
  title: ReactNode;
  /** The read that failed: its error says why, « Réessayer » reads it again. */
  query: RetryableRead;
  /** Shown when the error carries no French message of its own (a network failure). */
  fallback?: string;
  className?: string;
}

/**
 * A read that failed, said the same way on every screen: what could not be loaded, why (the API's
 * French message, or `fallback`), and a « Réessayer » button that reads again and spins meanwhile.
 */
export function LoadFailed({
  title,
  query,
  fallback = 'Vérifiez votre connexion internet puis réessayez.',
  className,
}: LoadFailedProps) {
  return (
    <Alert
      tone="error"
      title={title}
      className={className}
      action={
        <Button
          variant="outline"
          size="sm"
          leftIcon={<RefreshIcon size={16} />}
          loading={query.isFetching}
          onClick={() => void query.refetch()}
        >
          Réessayer
        </Button>
      }
    >
      {errorMessage(query.error, fallback)}
    </Alert>
  );
}
