import { lazyChecks } from '@cartable/ui';

/** The auth forms' checks (./validation.ts), loaded when a form is first touched. */
export const authChecks = lazyChecks(() => import(/* webpackChunkName: "auth-checks" */ './validation'));
