import type { Envelope } from '@cartable/contracts';
import type { Db, EventHandlers } from '@cartable/service-kit';
import { and, eq, inArray } from 'drizzle-orm';
import { alertChannels, members } from '../db/schema.ts';
import { recordMail } from '../queue/outgoing-mails.ts';
import { recordAlertSms } from '../sms/outgoing-sms.ts';
import type { DealMailEvent } from '../templates/deals.ts';

type DealEnvelope = Envelope<
  | 'catalog.transaction.proposed'
  | 'catalog.transaction.confirmed'
  | 'catalog.transaction.declined'
  | 'catalog.transaction.cancelled'
>;

/**
 * A deal's other party hears of it: the buyer of a proposal, the seller of a confirmation or a
 * refusal, the one who did not cancel (the buyer when catalog cancelled it). One mail per event,
 * whose id is the event's, and an SMS, as they chose for « Transactions ».
 */
async function dealMail(tx: Db, { id, data }: DealEnvelope, event: DealMailEvent) {
  const actor = event === 'proposed' ? data.seller_id : event === 'cancelled' ? data.cancelled_by : data.buyer_id;
  const recipientId =
    actor === data.seller_id ? data.buyer_id : actor === data.buyer_id ? data.seller_id : data.buyer_id;
  const people = await tx
    .select()
    .from(members)
    .where(inArray(members.id, [data.seller_id, data.buyer_id]));
  const recipient = people.find((p) => p.id === recipientId);
  if (!recipient) return;
  const other = actor ? people.find((p) => p.id === actor) : undefined;
  await recordAlertSms(tx, `${id}-sms`, {
    userId: recipient.id,
    kind: 'deals',
    message: {
      template: 'deal-step',
      data: { event, bookTitle: data.book_title, transactionId: data.transaction_id, otherName: other?.name ?? null },
    },
  });
  const [choice] = await tx
    .select({ email: alertChannels.email })
    .from(alertChannels)
    .where(and(eq(alertChannels.userId, recipient.id), eq(alertChannels.kind, 'deals')));
  if (choice?.email === false) return;
  await recordMail(tx, id, {
    template: 'deal',
    to: recipient.email,
    data: {
      name: recipient.name,
      otherName: actor ? (other?.name ?? 'Un membre') : null,
      event,
      transactionId: data.transaction_id,
      bookTitle: data.book_title,
      kind: data.kind,
      price: data.price,
      exchangeBookTitle: data.exchange_book_title,
    },
  });
}

/**
 * A moderator hid, showed again, deleted or changed the status of a listing: its owner is told,
 * with the reason. The mail's id is the event's: a redelivered event writes nothing new.
 */
export const catalogMails: EventHandlers = {
  'catalog.transaction.proposed': (tx, event) => dealMail(tx, event, 'proposed'),
  'catalog.transaction.confirmed': (tx, event) => dealMail(tx, event, 'confirmed'),
  'catalog.transaction.declined': (tx, event) => dealMail(tx, event, 'declined'),
  'catalog.transaction.cancelled': (tx, event) => dealMail(tx, event, 'cancelled'),
  'catalog.book.moderated': async (tx, { id, data }) => {
    const [owner] = await tx.select().from(members).where(eq(members.id, data.owner_id));
    if (!owner) return;
    await recordMail(tx, id, {
      template: 'book-moderated',
      to: owner.email,
      data: {
        name: owner.name,
        bookTitle: data.title,
        bookId: data.book_id,
        action: data.action,
        ...(data.status ? { status: data.status } : {}),
        reason: data.reason,
      },
    });
  },
};
