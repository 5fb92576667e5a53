import type { EventData } from '@cartable/contracts';
import type { Db, EventHandlers } from '@cartable/service-kit';
import * as queries from '../db/queries.ts';
import { closeAppliedReports, recordMessageReport } from '../domain/reports.ts';

/** Members from auth: the author shown on a comment; the newest version wins. */
export const memberProjection: EventHandlers = {
  'auth.user.registered': (tx, { data }) =>
    queries.keepMember(tx, data.user_id, { name: data.name, profileImage: data.profile_image, version: data.version }),
  'auth.user.updated': (tx, { data }) =>
    queries.keepMember(tx, data.user_id, { name: data.name, profileImage: data.profile_image, version: data.version }),
  'auth.user.deleted': (tx, { data }) =>
    queries.keepMember(tx, data.user_id, { name: 'Membre supprimé', profileImage: null, version: data.version }),
};

type BookEvent = EventData<'catalog.book.created'>;

/** Every book event carries the whole book: keep it unless what is held is newer. */
const keepBook = (tx: Db, data: BookEvent, deleted: boolean) =>
  queries.keepBook(tx, data.book_id, {
    ownerId: data.user_id,
    title: data.title,
    version: data.version,
    deletedAt: deleted ? new Date(data.occurred_at) : null,
  });

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

/**
 * The owning services' answers to a report's decision: catalog hid the listing, auth deactivated
 * the member; the reports they name close (« Traité »).
 */
export const catalogReportActions: EventHandlers = {
  'catalog.report.applied': (tx, { data, occurred_at }) => closeAppliedReports(tx, data, new Date(occurred_at)),
};
export const authReportActions: EventHandlers = {
  'auth.report.applied': (tx, { data, occurred_at }) => closeAppliedReports(tx, data, new Date(occurred_at)),
};

/** Blocks from messaging: neither member of a blocked pair comments on the other's listings. */
export { memberBlocksProjection } from '@cartable/service-kit';
