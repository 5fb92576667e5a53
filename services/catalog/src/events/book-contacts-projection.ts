import type { EventHandlers } from '@cartable/service-kit';
import { sql } from 'drizzle-orm';
import { bookContacts } from '../db/schema.ts';

/**
 * Who wrote to whom about which book, from messaging's messages: the owner of a listing may
 * record a deal only with a member they talked to about it. Each message adds (or widens) the
 * pair in both directions; a redelivered or late message changes nothing it should not, since
 * the first time only goes down and the last only up.
 */
export const bookContactsProjection: EventHandlers = {
  'messaging.message.sent': async (tx, { data }) => {
    const at = new Date(data.created_at);
    const pair = (memberId: string, otherId: string) => ({
      bookId: data.book_id,
      memberId,
      otherId,
      firstMessageAt: at,
      lastMessageAt: at,
    });
    await tx
      .insert(bookContacts)
      .values([pair(data.sender_id, data.receiver_id), pair(data.receiver_id, data.sender_id)])
      .onConflictDoUpdate({
        target: [bookContacts.bookId, bookContacts.memberId, bookContacts.otherId],
        set: {
          firstMessageAt: sql`least(${bookContacts.firstMessageAt}, excluded.first_message_at)`,
          lastMessageAt: sql`greatest(${bookContacts.lastMessageAt}, excluded.last_message_at)`,
        },
      });
  },
};
