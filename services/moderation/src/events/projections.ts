import type { EventHandlers } from '@cartable/service-kit';
import { eq } from 'drizzle-orm';
import { books, members } from '../db/schema.ts';

/** Members from auth: the author shown on a comment. */
export const memberProjection: EventHandlers = {
  'auth.user.registered': async (tx, { data }) => {
    const row = { name: data.name, profileImage: data.profile_image };
    await tx
      .insert(members)
      .values({ id: data.user_id, ...row })
      .onConflictDoUpdate({ target: members.id, set: row });
  },
  'auth.user.updated': async (tx, { data }) => {
    const row = { name: data.name, profileImage: data.profile_image };
    await tx
      .insert(members)
      .values({ id: data.user_id, ...row })
      .onConflictDoUpdate({ target: members.id, set: row });
  },
  'auth.user.deleted': async (tx, { data }) => {
    await tx.update(members).set({ name: 'Membre supprimé', profileImage: null }).where(eq(members.id, data.user_id));
  },
};

/** Books from catalog: who owns the book a comment is on. */
export const bookProjection: EventHandlers = {
  'catalog.book.created': async (tx, { data }) => {
    const row = { ownerId: data.user_id, title: data.title };
    await tx
      .insert(books)
      .values({ id: data.book_id, ...row })
      .onConflictDoUpdate({ target: books.id, set: row });
  },
  'catalog.book.updated': async (tx, { data }) => {
    const row = { ownerId: data.user_id, title: data.title };
    await tx
      .insert(books)
      .values({ id: data.book_id, ...row })
      .onConflictDoUpdate({ target: books.id, set: row });
  },
  'catalog.book.deleted': async (tx, { data }) => {
    await tx.update(books).set({ deletedAt: new Date() }).where(eq(books.id, data.book_id));
  },
};
