import { lazy } from 'react';

/** Payments of subscriptions (payments.manage): the queue to validate, every payment with totals, one payment. */
export const SubscriptionPaymentsPage = lazy(() =>
  import('./PaymentsListPage').then((m) => ({ default: m.SubscriptionPaymentsPage })),
);
export const PaymentsPage = lazy(() => import('./PaymentsListPage').then((m) => ({ default: m.AllPaymentsPage })));
export const PaymentDetailPage = lazy(() => import('./PaymentDetailPage'));
