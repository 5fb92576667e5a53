import { lazyChecks } from '@cartable/ui';

/** The message forms' checks (./validation.ts), loaded when a form is first touched. */
export const messageChecks = lazyChecks(() => import(/* webpackChunkName: "message-checks" */ './validation'));
