import type { EventData } from '@cartable/contracts';
import type { Db, EventHandlers } from '@cartable/service-kit';
import { keepBook as keepBookRow, keepMember } from '../db/queries.ts';

/** Members, from auth: the names and avatars a conversation shows; the newest version wins. */

export const memberProjection: EventHandlers = {
  'auth.user.registered': (tx, { data }) =>
    keepMember(tx, data.user_id, {
      name: data.name,
      username: data.username,
      profileImage: data.profile_image,
      deletedAt: null,
      version: data.version,
    }),
  'auth.user.updated': (tx, { data }) =>
    keepMember(tx, data.user_id, {
      name: data.name,
      username: data.username,
      profileImage: data.profile_image,
      deletedAt: null,
      version: data.version,
    }),
  // Their messages stay readable by the other member, under a neutral name.
  'auth.user.deleted': (tx, { data }) =>
    keepMember(tx, data.user_id, {
      name: 'Membre supprimé',
      username: 'membre_supprime',
      profileImage: null,
      deletedAt: new Date(data.deleted_at),
      version: data.version,
    }),
};

type BookEvent = EventData<'catalog.book.created'>;

/** Every book event carries the whole book: keep it unless what is held is newer. */
const keepBook = (tx: Db, data: BookEvent, deleted: boolean) =>
  keepBookRow(tx, data.book_id, {
    ownerId: data.user_id,
    title: data.title,
    price: data.price,
    status: data.status,
    thumbnail: data.thumbnail,
    version: data.version,
    deletedAt: deleted ? new Date(data.occurred_at) : null,
  });

/** Books, from catalog: a message is always about a book that exists. */
export const bookProjection: EventHandlers = {
  'catalog.book.created': (tx, { data }) => keepBook(tx, data, false),
  'catalog.book.updated': (tx, { data }) => keepBook(tx, data, false),
  'catalog.book.status_changed': (tx, { data }) => keepBook(tx, data, false),
  'catalog.book.deleted': (tx, { data }) => keepBook(tx, data, true),
};
