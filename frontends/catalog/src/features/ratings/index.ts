import { lazy } from 'react';

/** Ratings after a confirmed deal: the form (/rate-transaction/:id) and the member's ratings (/my-ratings). */
export { StarRating } from './StarRating';
export const RateTransactionPage = lazy(() => import('./RateTransactionPage'));
export const MyRatingsPage = lazy(() => import('./MyRatingsPage'));
