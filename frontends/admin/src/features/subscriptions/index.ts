import { lazy } from 'react';

/** Subscriptions in the back office: plans, members' subscriptions, listings « À la une ». */
export const SubscriptionPlansPage = lazy(() => import('./PlansPage'));
export const UserSubscriptionsPage = lazy(() => import('./UserSubscriptionsPage'));
export const BookSubscriptionsPage = lazy(() => import('./BookSubscriptionsPage'));
export { SubscriptionStatusBadge } from './SubscriptionStatusBadge';
