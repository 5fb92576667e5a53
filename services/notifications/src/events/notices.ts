import { type EventData, statusLabel, transactionKindLabels } from '@cartable/contracts';
import type { Db, EventHandlers } from '@cartable/service-kit';
import { and, eq, ne, sql } from 'drizzle-orm';
import {
  alertChannels,
  favouriteWatchers,
  members,
  notices,
  notificationPreferences,
  outgoingMails,
} from '../db/schema.ts';
import { unsubscribeTokensOf } from '../db/unsubscribe-tokens.ts';
import { type FavouriteAlertKind, favouriteAlertText } from '../templates/favourites.ts';

/**
 * Who follows which book: a projection of catalog.favourite.added/removed. The newest change
 * wins (catalog's time), so a removal delivered before its add, or twice, ends in the right state.
 */
async function keepWatcher(tx: Db, data: EventData<'catalog.favourite.added'>, active: boolean) {
  const changedAt = new Date(data.at);
  await tx
    .insert(favouriteWatchers)
    .values({ userId: data.user_id, bookId: data.book_id, active, changedAt })
    .onConflictDoUpdate({
      target: [favouriteWatchers.userId, favouriteWatchers.bookId],
      set: { active, changedAt },
      setWhere: sql`${favouriteWatchers.changedAt} < ${changedAt.toISOString()}::timestamptz`,
    });
}

type Book = EventData<'catalog.book.updated'>;

/**
 * Tells every member following the book, once per event: one notice and one mail each, written
 * in bulk in the consumer's transaction, keyed by event and member. A redelivered event is
 * skipped by processed_events, and would add nothing anyway (the keys exist): a book with 500
 * followers sends 500 mails, never 1 000. Each member's preferences decide (no row: both on).
 */
async function alertFollowers(tx: Db, eventId: string, book: Book, kind: FavouriteAlertKind) {
  const followers = await tx
    .select({
      userId: favouriteWatchers.userId,
      name: members.name,
      email: members.email,
      emails: sql<boolean>`coalesce(${notificationPreferences.favouriteEmails}, true)`,
      inApp: sql<boolean>`coalesce(${notificationPreferences.favouriteNotices}, true)`,
    })
    .from(favouriteWatchers)
    .leftJoin(members, eq(members.id, favouriteWatchers.userId))
    .leftJoin(notificationPreferences, eq(notificationPreferences.userId, favouriteWatchers.userId))
    .where(
      and(
        eq(favouriteWatchers.bookId, book.book_id),
        eq(favouriteWatchers.active, true),
        // The owner following their own listing is not told what they did.
        ne(favouriteWatchers.userId, book.user_id),
      ),
    );
  if (!followers.length) return;
  const alert = {
    kind,
    bookId: book.book_id,
    bookTitle: book.title,
    price: book.price,
    previousPrice: book.previous_price ?? null,
  };
  const { title, sentence } = favouriteAlertText(alert);
  const inApp = followers.filter((f) => f.inApp);
  if (inApp.length)
    await tx
      .insert(notices)
      .values(
        inApp.map((f) => ({
          key: `${eventId}:${f.userId}`,
          userId: f.userId,
          type: `favourite.${kind}`,
          title,
          body: sentence,
          link: `/books/${book.book_id}`,
        })),
      )
      .onConflictDoNothing();
  const byMail = followers.filter((f) => f.emails && f.email);
  if (!byMail.length) return;
  const tokens = await unsubscribeTokensOf(
    tx,
    byMail.map((f) => f.userId),
  );
  await tx
    .insert(outgoingMails)
    .values(
      byMail.map((f) => ({
        id: `${eventId}-favourite-${f.userId}`,
        template: 'favourite-alert',
        recipient: f.email!,
        data: { name: f.name ?? '', ...alert, unsubscribeToken: tokens.get(f.userId) },
      })),
    )
    .onConflictDoNothing();
}

const dealNotice = {
  proposed: { title: 'Nouvelle proposition de transaction', verb: 'vous propose' },
  confirmed: { title: 'Transaction confirmée', verb: 'a confirmé' },
  declined: { title: 'Transaction refusée', verb: 'a refusé' },
  cancelled: { title: 'Transaction annulée', verb: 'a annulé' },
} as const;

/**
 * A deal's step reaches the other party's notice centre: a proposal the buyer, a confirmation or
 * refusal the seller, a cancellation whoever did not cancel (the buyer when catalog cancelled it
 * because the book went in another deal).
 */
async function dealToOtherParty(
  tx: Db,
  eventId: string,
  step: keyof typeof dealNotice,
  deal: EventData<'catalog.transaction.proposed'>,
) {
  const actor =
    step === 'proposed' ? deal.seller_id : step === 'cancelled' ? (deal.cancelled_by ?? null) : deal.buyer_id;
  const recipient = actor === deal.seller_id ? deal.buyer_id : deal.seller_id;
  const [choice] = await tx
    .select({ inApp: alertChannels.inApp })
    .from(alertChannels)
    .where(and(eq(alertChannels.userId, recipient), eq(alertChannels.kind, 'deals')));
  if (choice?.inApp === false) return;
  const [who] = actor ? await tx.select({ name: members.name }).from(members).where(eq(members.id, actor)) : [];
  const kind = transactionKindLabels[deal.kind].toLowerCase();
  const subject = who?.name ?? (actor ? 'L’autre membre' : 'Cartable');
  const body =
    step === 'cancelled' && !actor
      ? `La proposition de ${kind} pour « ${deal.book_title} » a été annulée : le manuel a été cédé dans une autre transaction.`
      : step === 'proposed'
        ? `${subject} ${dealNotice[step].verb} une ${kind} pour « ${deal.book_title} ». Confirmez ou refusez-la.`
        : `${subject} ${dealNotice[step].verb} la ${kind} pour « ${deal.book_title} ».`;
  await tx
    .insert(notices)
    .values({
      key: `${eventId}:${recipient}`,
      userId: recipient,
      type: `transaction.${step}`,
      title: dealNotice[step].title,
      body,
      link: `/transactions/${deal.transaction_id}`,
    })
    .onConflictDoNothing();
}

/** A review just written reaches the member it is about, with a way to their reviews. */
async function reviewReceived(tx: Db, eventId: string, data: EventData<'catalog.seller.rated'>) {
  const review = data.review;
  if (!review) return;
  const [who] = await tx.select({ name: members.name }).from(members).where(eq(members.id, review.from_user_id));
  const stars = `${review.rating} étoile${review.rating > 1 ? 's' : ''} sur 5`;
  await tx
    .insert(notices)
    .values({
      key: `${eventId}:${data.user_id}`,
      userId: data.user_id,
      type: 'rating.received',
      title: 'Nouvel avis reçu',
      body: `${who?.name ?? 'L’autre membre'} vous a donné ${stars} après la transaction pour « ${review.book_title} ».`,
      link: '/my-ratings',
    })
    .onConflictDoNothing();
}

/** Catalog's events that make notices (and favourite mails). */
export const noticeTriggers: EventHandlers = {
  'catalog.favourite.added': (tx, { data }) => keepWatcher(tx, data, true),
  'catalog.favourite.removed': (tx, { data }) => keepWatcher(tx, data, false),
  'catalog.book.status_changed': async (tx, { id, data }) => {
    if (data.status === data.previous_status) return;
    if (data.status === 'réservé') await alertFollowers(tx, id, data, 'reserved');
    else if (statusLabel(data.status) === 'Vendu') await alertFollowers(tx, id, data, 'sold');
  },
  'catalog.book.updated': async (tx, { id, data }) => {
    if (data.previous_price !== undefined && data.price < data.previous_price && data.status !== 'vendu')
      await alertFollowers(tx, id, data, 'price_drop');
  },
  'catalog.book.deleted': async (tx, { data }) => {
    await tx
      .update(favouriteWatchers)
      .set({ active: false })
      .where(and(eq(favouriteWatchers.bookId, data.book_id), eq(favouriteWatchers.active, true)));
  },
  'catalog.transaction.proposed': (tx, { id, data }) => dealToOtherParty(tx, id, 'proposed', data),
  'catalog.seller.rated': (tx, { id, data }) => reviewReceived(tx, id, data),
  'catalog.transaction.confirmed': (tx, { id, data }) => dealToOtherParty(tx, id, 'confirmed', data),
  'catalog.transaction.declined': (tx, { id, data }) => dealToOtherParty(tx, id, 'declined', data),
  'catalog.transaction.cancelled': (tx, { id, data }) => dealToOtherParty(tx, id, 'cancelled', data),
};

/** Housekeeping: notices go after 90 days, read or not. */
export function deleteOldNotices(days: number) {
  return async (db: Db): Promise<number> => {
    const deleted = await db
      .delete(notices)
      .where(sql`${notices.createdAt} < now() - make_interval(days => ${days})`)
      .returning({ id: notices.id });
    return deleted.length;
  };
}
