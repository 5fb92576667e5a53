import type { EventHandlers } from '@cartable/service-kit';
import { eq } from 'drizzle-orm';
import { members } from '../db/schema.ts';
import { recordMail } from '../queue/outgoing-mails.ts';

/**
 * The book's owner hears of a new comment (not their own); a contact gets the admin's answer; a
 * member warned after reports is told why.
 */
export const moderationMails: EventHandlers = {
  'moderation.comment.created': async (tx, { id, data }) => {
    if (data.author_id === data.book_owner_id) return;
    const [owner] = await tx.select().from(members).where(eq(members.id, data.book_owner_id));
    if (!owner) return;
    await recordMail(tx, id, {
      template: 'new-comment',
      to: owner.email,
      data: {
        name: owner.name,
        authorName: data.author_name,
        bookTitle: data.book_title,
        bookId: data.book_id,
        content: data.content,
        pending: data.status === 'pending',
      },
    });
  },
  'moderation.member.warned': async (tx, { id, data }) => {
    const [member] = await tx.select().from(members).where(eq(members.id, data.user_id));
    if (!member) return;
    await recordMail(tx, id, {
      template: 'member-warned',
      to: member.email,
      data: { name: member.name, reason: data.reason, targetLabel: data.target_label, note: data.note },
    });
  },
  'moderation.contact.answered': async (tx, { id, data }) => {
    await recordMail(tx, id, {
      template: 'contact-answer',
      to: data.email,
      data: { name: data.name, subject: data.subject, message: data.message, response: data.response },
    });
  },
};
