import { ratingFormSchema } from '@cartable/contracts';
import { zodResolver } from '@hookform/resolvers/zod';

/**
 * The rating form's checks (1 to 5 stars, a comment of 2 to 500 characters): the contract's schema,
 * loaded with zod when the form is first touched (./checks.ts), not with the page a phone opens
 * from the e-mail's link.
 */
export const ratingResolver = zodResolver(ratingFormSchema);
