import type { EventType } from '@cartable/contracts';
import type { Db, EventHandler, EventHandlers } from '@cartable/service-kit';
import { eq, type SQL, sql } from 'drizzle-orm';
import { userActivities, userStats, users } from '../db/schema.ts';

type Counter = 'booksTotal' | 'booksAvailable' | 'booksSold';

/** Adds to a member's counters; the row is created on the first event. */
async function bump(tx: Db, userId: string, changes: Partial<Record<Counter, number>>) {
  const column = {
    booksTotal: userStats.booksTotal,
    booksAvailable: userStats.booksAvailable,
    booksSold: userStats.booksSold,
  };
  const set: Record<string, SQL> = {};
  for (const [key, delta] of Object.entries(changes) as Array<[Counter, number]>) {
    set[key] = sql`greatest(0, ${column[key]} + ${delta})`;
  }
  const initial = Object.fromEntries(Object.entries(changes).map(([k, v]) => [k, Math.max(0, v)]));
  await tx
    .insert(userStats)
    .values({ userId, ...initial })
    .onConflictDoUpdate({ target: userStats.userId, set: { ...set, updatedAt: new Date() } });
}

const isAvailable = (status: string) => status !== 'vendu';

/**
 * Projection of catalog's events for the member's dashboard (/user/stats, /user/recent-activity):
 * auth never asks catalog on the request path.
 */
const handlers: EventHandlers = {
  'catalog.book.created': async (tx, { data }) => {
    await bump(tx, data.user_id, { booksTotal: 1, booksAvailable: 1 });
    await tx.insert(userActivities).values({
      userId: data.user_id,
      type: 'book.created',
      title: `Annonce publiée : ${data.title}`,
      link: `/books/${data.book_id}`,
    });
  },
  'catalog.book.status_changed': async (tx, { data }) => {
    const was = isAvailable(data.previous_status);
    const now = isAvailable(data.status);
    await bump(tx, data.user_id, {
      booksAvailable: (now ? 1 : 0) - (was ? 1 : 0),
      booksSold: (data.status === 'vendu' ? 1 : 0) - (data.previous_status === 'vendu' ? 1 : 0),
    });
    const label = data.status === 'vendu' ? 'vendu' : data.status === 'réservé' ? 'réservé' : 'de nouveau disponible';
    await tx.insert(userActivities).values({
      userId: data.user_id,
      type: 'book.status_changed',
      title: `${data.title} : ${label}`,
      link: `/books/${data.book_id}`,
    });
  },
  'catalog.book.deleted': async (tx, { data }) => {
    await bump(tx, data.user_id, {
      booksTotal: -1,
      booksAvailable: isAvailable(data.status) ? -1 : 0,
      booksSold: data.status === 'vendu' ? -1 : 0,
    });
    await tx
      .insert(userActivities)
      .values({ userId: data.user_id, type: 'book.deleted', title: `Annonce supprimée : ${data.title}`, link: null });
  },
};

/** An event about a member who has deleted their account since is simply skipped. */
export const memberActivity: EventHandlers = Object.fromEntries(
  Object.entries(handlers).map(([type, handle]) => [
    type,
    (async (tx, event) => {
      const [member] = await tx
        .select({ id: users.id })
        .from(users)
        .where(eq(users.id, (event.data as { user_id: string }).user_id));
      if (member) await (handle as EventHandler<EventType>)(tx, event);
    }) satisfies EventHandler<EventType>,
  ]),
);
