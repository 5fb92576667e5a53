import { lazyChecks } from '@cartable/ui';

/** The rating form's checks (./validation.ts), loaded when the form is first touched. */
export const ratingChecks = lazyChecks(() => import(/* webpackChunkName: "rating-checks" */ './validation'));
