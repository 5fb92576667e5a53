import type { EventHandlers } from '@cartable/service-kit';
import type { Queue } from 'bullmq';
import { eq } from 'drizzle-orm';
import { members } from '../db/schema.ts';
import type { MailJob } from '../queue/mail-queue.ts';

/** The book's owner hears of a new comment (not their own); a contact gets the admin's answer. */
export function moderationMails(queue: Queue<MailJob>): EventHandlers {
  return {
    'moderation.comment.created': async (tx, { id, data }) => {
      if (data.author_id === data.book_owner_id) return;
      const [owner] = await tx.select().from(members).where(eq(members.id, data.book_owner_id));
      if (!owner) return;
      await queue.add(
        'new-comment',
        {
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
        },
        { jobId: id },
      );
    },
    'moderation.contact.answered': async (_tx, { id, data }) => {
      await queue.add(
        'contact-answer',
        {
          template: 'contact-answer',
          to: data.email,
          data: { name: data.name, subject: data.subject, message: data.message, response: data.response },
        },
        { jobId: id },
      );
    },
  };
}
