import type { EventHandlers } from '@cartable/service-kit';
import { and, eq, gt, lt } from 'drizzle-orm';
import { alertChannels, members, messageNotices } from '../db/schema.ts';
import type { Mail } from '../queue/mail-queue.ts';
import { recordMail } from '../queue/outgoing-mails.ts';
import { recordAlertSms } from '../sms/outgoing-sms.ts';

export const NOTICE_INTERVAL_MS = 15 * 60_000;

/** Members' addresses and whether they are active, kept from auth's events. */
export const memberAddresses: EventHandlers = {
  'auth.user.registered': async (tx, { data }) => {
    await tx
      .insert(members)
      .values({ id: data.user_id, name: data.name, email: data.email })
      .onConflictDoUpdate({ target: members.id, set: { name: data.name, email: data.email } });
  },
  'auth.user.updated': async (tx, { data }) => {
    await tx.update(members).set({ name: data.name }).where(eq(members.id, data.user_id));
  },
  'auth.user.deleted': async (tx, { data }) => {
    await tx.delete(members).where(eq(members.id, data.user_id));
  },
  // Whether an administrator deactivated them: the member's version orders the two events.
  'auth.user.deactivated': async (tx, { data }) => {
    await tx
      .update(members)
      .set({ deactivatedAt: new Date(data.deactivated_at), statusVersion: data.version })
      .where(and(eq(members.id, data.user_id), lt(members.statusVersion, data.version)));
  },
  'auth.user.reactivated': async (tx, { data }) => {
    await tx
      .update(members)
      .set({ deactivatedAt: null, statusVersion: data.version })
      .where(and(eq(members.id, data.user_id), lt(members.statusVersion, data.version)));
  },
};

/**
 * A new message tells the receiver, at most once per conversation every 15 minutes (the notice
 * is recorded in the handler's transaction, so a redelivery sends nothing twice), by e-mail and by
 * SMS as they chose for « Messages »; the sender gets a copy when they asked for one.
 */
export const messageMails: EventHandlers = {
  'messaging.message.sent': async (tx, { id, data }) => {
    const [[receiver], [sender]] = await Promise.all([
      tx.select().from(members).where(eq(members.id, data.receiver_id)),
      tx.select().from(members).where(eq(members.id, data.sender_id)),
    ]);
    const mails: Array<[string, Mail]> = [];
    if (receiver) {
      const recent = await tx
        .select()
        .from(messageNotices)
        .where(
          and(
            eq(messageNotices.conversationId, data.conversation_id),
            eq(messageNotices.receiverId, receiver.id),
            gt(messageNotices.lastSentAt, new Date(Date.parse(data.created_at) - NOTICE_INTERVAL_MS)),
          ),
        );
      if (!recent.length) {
        const sentAt = new Date(data.created_at);
        await tx
          .insert(messageNotices)
          .values({ conversationId: data.conversation_id, receiverId: receiver.id, lastSentAt: sentAt })
          .onConflictDoUpdate({
            target: [messageNotices.conversationId, messageNotices.receiverId],
            set: { lastSentAt: sentAt },
          });
        const [choice] = await tx
          .select({ email: alertChannels.email })
          .from(alertChannels)
          .where(and(eq(alertChannels.userId, receiver.id), eq(alertChannels.kind, 'messages')));
        await recordAlertSms(tx, `${id}-sms`, {
          userId: receiver.id,
          kind: 'messages',
          message: {
            template: 'message-waiting',
            data: {
              senderName: data.sender_name,
              bookTitle: data.book_title,
              bookId: data.book_id,
              senderId: data.sender_id,
            },
          },
        });
        if (choice?.email !== false)
          mails.push([
            `${id}-notice`,
            {
              template: 'new-message',
              to: receiver.email,
              data: {
                name: receiver.name,
                senderName: data.sender_name,
                bookTitle: data.book_title,
                bookId: data.book_id,
                senderId: data.sender_id,
                content: data.content,
              },
            },
          ]);
      }
    }
    if (data.send_email_copy && sender) {
      mails.push([
        `${id}-copy`,
        {
          template: 'message-copy',
          to: sender.email,
          data: {
            name: sender.name,
            receiverName: receiver?.name ?? 'un membre',
            bookTitle: data.book_title,
            bookId: data.book_id,
            receiverId: data.receiver_id,
            content: data.content,
          },
        },
      ]);
    }
    for (const [mailId, mail] of mails) await recordMail(tx, mailId, mail);
  },
};
