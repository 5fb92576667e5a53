import { lazyChecks } from '@cartable/ui';

/** The profile page's checks (./validation.ts), loaded when one of its forms is first touched. */
export const accountChecks = lazyChecks(() => import(/* webpackChunkName: "account-checks" */ './validation'));
