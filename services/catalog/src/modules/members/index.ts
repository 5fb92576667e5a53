/**
 * Members: catalog's projection of auth's members (their public face, whether they are away)
 * with their rating aggregate, and of messaging's blocks. Other modules read members through the
 * functions and the relation below, never by naming the tables; this file is the only one of the
 * module they may import.
 */

/** Who may no longer see a member's phone and e-mail, deal or swap with them: messaging's blocks. */
export { memberBlocksProjection } from '@cartable/service-kit';
export {
  blockBetween,
  blockedBy,
  blockedEitherWay,
  countInTowns,
  lockMember,
  type MemberCard,
  memberCards,
  memberRelation,
  memberStanding,
  membersSubquery,
  placeDemoMember,
  ratingOf,
  setRating,
  standingBlocks,
} from './db/queries.ts';
export { sellersProjection } from './events/sellers-projection.ts';

/** auth's events that take a member's listings out of the public catalogue or bring them back. */
export const MEMBER_STANDING_EVENTS = ['auth.user.deactivated', 'auth.user.reactivated', 'auth.user.deleted'] as const;
