import { lazy } from 'react';

/** Deals between members: the list, a deal, and « Conclure » from a conversation or a listing. */
export { transactionQuery as transactionDetailQuery } from './api/transactions';
export type { ConcludeDialogProps } from './ConcludeDialog';
export { ConcludeDialog } from './LazyConcludeDialog';
export const TransactionsPage = lazy(() => import('./TransactionsPage'));
export const TransactionDetailPage = lazy(() => import('./TransactionDetailPage'));
