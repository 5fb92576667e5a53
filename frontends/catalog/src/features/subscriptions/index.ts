import { lazy } from 'react';

/**
 * Subscriptions and listing boosts (issue 13): the public plans (/subscription), a listing's boost
 * (/books/{bookId}/subscription), the member's subscriptions and one subscription's details.
 */
export const PlansPage = lazy(() => import('./PlansPage'));
export const BoostBookPage = lazy(() => import('./BoostBookPage'));
export const MySubscriptionsPage = lazy(() => import('./MySubscriptionsPage'));
export const SubscriptionDetailPage = lazy(() => import('./SubscriptionDetailPage'));
