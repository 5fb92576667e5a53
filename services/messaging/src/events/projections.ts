import type { EventHandlers } from '@cartable/service-kit';
import { eq } from 'drizzle-orm';
import { books, members } from '../db/schema.ts';

/** Members, from auth: the names and avatars a conversation shows. */
export const memberProjection: EventHandlers = {
  'auth.user.registered': async (tx, { data }) => {
    const row = { name: data.name, username: data.username, profileImage: data.profile_image };
    await tx
      .insert(members)
      .values({ id: data.user_id, ...row })
      .onConflictDoUpdate({ target: members.id, set: row });
  },
  'auth.user.updated': async (tx, { data }) => {
    const row = { name: data.name, username: data.username, profileImage: data.profile_image };
    await tx
      .insert(members)
      .values({ id: data.user_id, ...row })
      .onConflictDoUpdate({ target: members.id, set: row });
  },
  'auth.user.deleted': async (tx, { data }) => {
    // Their messages stay readable by the other member, under a neutral name.
    await tx
      .update(members)
      .set({ name: 'Membre supprimé', username: 'membre_supprime', profileImage: null, deletedAt: new Date() })
      .where(eq(members.id, data.user_id));
  },
};

/** Books, from catalog: a message is always about a book that exists. */
export const bookProjection: EventHandlers = {
  'catalog.book.created': async (tx, { data }) => {
    const row = {
      ownerId: data.user_id,
      title: data.title,
      price: data.price,
      status: data.status,
      thumbnail: data.thumbnail,
    };
    await tx
      .insert(books)
      .values({ id: data.book_id, ...row })
      .onConflictDoUpdate({ target: books.id, set: row });
  },
  'catalog.book.updated': async (tx, { data }) => {
    const row = {
      ownerId: data.user_id,
      title: data.title,
      price: data.price,
      status: data.status,
      thumbnail: data.thumbnail,
    };
    await tx
      .insert(books)
      .values({ id: data.book_id, ...row })
      .onConflictDoUpdate({ target: books.id, set: row });
  },
  'catalog.book.status_changed': async (tx, { data }) => {
    await tx.update(books).set({ status: data.status }).where(eq(books.id, data.book_id));
  },
  'catalog.book.deleted': async (tx, { data }) => {
    await tx.update(books).set({ deletedAt: new Date() }).where(eq(books.id, data.book_id));
  },
};
