import type { EventHandlers } from '@cartable/service-kit';
import { keepBlock } from '../db/queries.ts';

/** messaging.member.blocked / unblocked: who may no longer see a member's phone and e-mail. */
export const memberBlocksProjection: EventHandlers = {
  'messaging.member.blocked': (tx, { data }) => keepBlock(tx, data, true),
  'messaging.member.unblocked': (tx, { data }) => keepBlock(tx, data, false),
};
