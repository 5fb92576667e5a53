import type { EventHandlers } from '@cartable/service-kit';
import { keepContact } from '../db/queries.ts';

/**
 * Who wrote to whom about which book, from messaging's messages: the owner of a listing may
 * record a deal only with a member they talked to about it. Each message adds (or widens) the
 * pair in both directions; a redelivered or late message changes nothing it should not.
 */
export const bookContactsProjection: EventHandlers = {
  'messaging.message.sent': (tx, { data }) =>
    keepContact(tx, data.book_id, data.sender_id, data.receiver_id, new Date(data.created_at)),
};
