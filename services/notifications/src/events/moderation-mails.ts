import type { EventHandlers } from '@cartable/service-kit';
import { eq } from 'drizzle-orm';
import { members } from '../db/schema.ts';
import { recordMail } from '../queue/outgoing-mails.ts';

/** The book's owner hears of a new comment (not their own); a contact gets the admin's answer. */
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
  'moderation.contact.answered': async (tx, { id, data }) => {
    await recordMail(tx, id, {
      template: 'contact-answer',
      to: data.email,
      data: { name: data.name, subject: data.subject, message: data.message, response: data.response },
    });
  },
};
