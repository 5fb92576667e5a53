import { lazyChecks } from '@cartable/ui';

/** The listing form's checks (./validation.ts), loaded when the form is first touched. */
export const bookChecks = lazyChecks(() => import(/* webpackChunkName: "book-checks" */ './validation'));
