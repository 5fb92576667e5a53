import { lazyChecks } from '@cartable/ui';

/** The contact form's checks (./validation.ts), loaded when the form is first touched. */
export const contactChecks = lazyChecks(() => import(/* webpackChunkName: "contact-checks" */ './validation'));
