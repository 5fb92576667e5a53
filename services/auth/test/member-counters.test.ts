import { randomUUID } from 'node:crypto';
import type { Db, EventHandlers } from '@cartable/service-kit';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberActivity, memberExchanges } from '../src/events/member-activity.ts';
import { type AuthHarness, startAuth } from './harness.ts';

/**
 * The member dashboard's counters (/user/stats) fed by the other services' events, on a real
 * PostgreSQL: listings by state (reserved ones are not « disponibles »), conversations counted
 * once each, messages received, comments written.
 */
let h: AuthHarness;
beforeAll(async () => {
  h = await startAuth();
}, 60_000);
afterAll(async () => {
  await h?.teardown();
});

/** Handles one event as the consumer would: in a transaction of auth's database. */
function deliver(handlers: EventHandlers, type: string, data: Record<string, unknown>) {
  const handle = (handlers as Record<string, (tx: Db, event: unknown) => Promise<void>>)[type];
  if (!handle) throw new Error(`no handler for ${type}`);
  return h.db.transaction((tx) => handle(tx as unknown as Db, { id: randomUUID(), type, data }));
}

const book = (bookId: number, userId: string, status: string, version: number) => ({
  book_id: bookId,
  user_id: userId,
  title: `Manuel ${bookId}`,
  price: 2000,
  status,
  city_id: 1,
  category_ids: [],
  thumbnail: null,
  version,
  occurred_at: new Date().toISOString(),
});

const message = (conversation: string, sender: string, receiver: string) => ({
  message_id: randomUUID(),
  conversation_id: conversation,
  book_id: 1,
  book_title: 'Manuel 1',
  sender_id: sender,
  sender_name: 'Parent',
  receiver_id: receiver,
  content: 'Bonjour',
  send_email_copy: false,
  created_at: new Date().toISOString(),
});

describe('dashboard counters', () => {
  it('counts what a member has of each: listings by state, conversations, messages received, comments', async () => {
    const seller = await h.member('compteurs');
    const buyer = await h.member('acheteur');
    const stats = async (token: string) => (await h.call('GET', '/user/stats', undefined, token)).body.stats;

    await deliver(memberActivity, 'catalog.book.created', book(101, seller.user.id, 'disponible', 1));
    await deliver(memberActivity, 'catalog.book.created', book(102, seller.user.id, 'disponible', 1));
    await deliver(memberActivity, 'catalog.book.created', book(103, seller.user.id, 'disponible', 1));
    await deliver(memberActivity, 'catalog.book.status_changed', {
      ...book(102, seller.user.id, 'réservé', 2),
      previous_status: 'disponible',
    });
    await deliver(memberActivity, 'catalog.book.status_changed', {
      ...book(103, seller.user.id, 'vendu', 2),
      previous_status: 'disponible',
    });

    const first = randomUUID();
    const second = randomUUID();
    await deliver(memberExchanges.messaging, 'messaging.message.sent', message(first, buyer.user.id, seller.user.id));
    await deliver(memberExchanges.messaging, 'messaging.message.sent', message(first, seller.user.id, buyer.user.id));
    await deliver(memberExchanges.messaging, 'messaging.message.sent', message(first, buyer.user.id, seller.user.id));
    await deliver(memberExchanges.messaging, 'messaging.message.sent', message(second, buyer.user.id, seller.user.id));
    await deliver(memberExchanges.moderation, 'moderation.comment.created', {
      comment_id: randomUUID(),
      book_id: 101,
      book_title: 'Manuel 101',
      book_owner_id: seller.user.id,
      author_id: buyer.user.id,
      author_name: 'Parent',
      content: 'Toujours disponible ?',
      status: 'pending',
    });

    expect(await stats(seller.token)).toEqual({
      books_total: 3,
      books_available: 1,
      books_sold: 1,
      conversations: 2,
      messages_received: 3,
      comments: 0,
    });
    expect(await stats(buyer.token)).toEqual({
      books_total: 0,
      books_available: 0,
      books_sold: 0,
      conversations: 2,
      messages_received: 1,
      comments: 1,
    });
  });

  it('skips a member who is not (or no longer) here', async () => {
    const ghost = randomUUID();
    const member = await h.member('restant');
    await deliver(memberExchanges.messaging, 'messaging.message.sent', message(randomUUID(), member.user.id, ghost));
    const rows = await h.db.execute(sql`select count(*)::int as n from user_stats where user_id = ${ghost}`);
    expect((rows as unknown as { rows: Array<{ n: number }> }).rows[0]?.n).toBe(0);
    expect((await h.call('GET', '/user/stats', undefined, member.token)).body.stats.conversations).toBe(1);
  });
});
