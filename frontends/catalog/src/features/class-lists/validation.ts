import { classListProposalRequestSchema } from '@cartable/contracts';
import { zodResolver } from '@hookform/resolvers/zod';

/**
 * « Proposer une liste »'s checks: the contract of POST /class-lists/proposals, loaded with zod when
 * the form is first touched (./checks.ts), not with the page.
 */
export const proposalResolver = zodResolver(classListProposalRequestSchema);
