import type { EventData } from '@cartable/contracts';
import { type Db, type EventHandlers, isNewer } from '@cartable/service-kit';
import { books, members } from '../db/schema.ts';
import { recordMessageReport } from '../domain/reports.ts';

/** Members from auth: the author shown on a comment; the newest version wins. */
async function keepMember(tx: Db, id: string, row: { name: string; profileImage: string | null; version: number }) {
  await tx
    .insert(members)
    .values({ id, ...row })
    .onConflictDoUpdate({ target: members.id, set: row, setWhere: isNewer(members.version) });
}

export const memberProjection: EventHandlers = {
  'auth.user.registered': (tx, { data }) =>
    keepMember(tx, data.user_id, { name: data.name, profileImage: data.profile_image, version: data.version }),
  'auth.user.updated': (tx, { data }) =>
    keepMember(tx, data.user_id, { name: data.name, profileImage: data.profile_image, version: data.version }),
  'auth.user.deleted': (tx, { data }) =>
    keepMember(tx, data.user_id, { name: 'Membre supprimé', profileImage: null, version: data.version }),
};

type BookEvent = EventData<'catalog.book.created'>;

/** Every book event carries the whole book: keep it unless what is held is newer. */
async function keepBook(tx: Db, data: BookEvent, deleted: boolean) {
  const row = {
    ownerId: data.user_id,
    title: data.title,
    version: data.version,
    deletedAt: deleted ? new Date(data.occurred_at) : null,
  };
  await tx
    .insert(books)
    .values({ id: data.book_id, ...row })
    .onConflictDoUpdate({ target: books.id, set: row, setWhere: isNewer(books.version) });
}

/** Books from catalog: who owns the book a comment is on. */
export const bookProjection: EventHandlers = {
  'catalog.book.created': (tx, { data }) => keepBook(tx, data, false),
  'catalog.book.updated': (tx, { data }) => keepBook(tx, data, false),
  'catalog.book.status_changed': (tx, { data }) => keepBook(tx, data, false),
  'catalog.book.deleted': (tx, { data }) => keepBook(tx, data, true),
};

/** Messages reported by their receiver in messaging: into the « Signalements » queue. */
export const messageReports: EventHandlers = {
  'messaging.message.reported': (tx, { data }) => recordMessageReport(tx, data),
};
