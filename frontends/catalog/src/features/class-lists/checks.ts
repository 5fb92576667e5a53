import { lazyChecks } from '@cartable/ui';

/** « Proposer une liste »'s checks (./validation.ts), loaded when the form is first touched. */
export const proposalChecks = lazyChecks(() => import(/* webpackChunkName: "proposal-checks" */ './validation'));
