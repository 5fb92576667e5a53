import { randomUUID } from 'node:crypto';
import { createRedis } from '@cartable/service-kit';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { outbox, subscriptionPlans, subscriptions } from '../src/db/schema.ts';
import { createSubscriptionJobs, type SubscriptionJobs } from '../src/modules/monetisation/index.ts';
import { type CatalogHarness, startCatalog } from './harness.ts';

/** The BullMQ side: delayed jobs at the end (and the reminder) run the sweep on real Redis. */
let h: CatalogHarness;
let jobs: SubscriptionJobs;
const connections = [] as ReturnType<typeof createRedis>[];

beforeAll(async () => {
  h = await startCatalog();
  connections.push(
    createRedis(h.config.REDIS_URL, { forQueue: true }),
    createRedis(h.config.REDIS_URL, { forQueue: true }),
  );
  jobs = createSubscriptionJobs(
    connections[0]!,
    connections[1]!,
    h.uow,
    pino({ level: 'silent' }),
    h.config.REDIS_KEY_PREFIX,
  );
});
afterAll(async () => {
  await jobs?.close();
  await Promise.all(connections.map((c) => c.quit()));
  await h?.teardown();
});

it('expires a subscription at its end and reminds it once, by delayed jobs', async () => {
  const [plan] = await h.db.select().from(subscriptionPlans).where(eq(subscriptionPlans.seedKey, 'boost-7'));
  const now = Date.now();
  const [sub] = await h.db
    .insert(subscriptions)
    .values({
      userId: randomUUID(),
      planId: plan!.id,
      planKind: 'boost',
      planName: plan!.name,
      planPrice: plan!.price,
      planDurationDays: plan!.durationDays,
      planBoostSlots: 1,
      planSellerBadge: false,
      status: 'active',
      startsAt: new Date(now - 7 * 86_400_000),
      endsAt: new Date(now + 800),
    })
    .returning();
  await jobs.schedule(sub!);
  await jobs.schedule(sub!); // the same moments: no second job
  await vi.waitFor(
    async () => {
      const [row] = await h.db
        .select({ status: subscriptions.status })
        .from(subscriptions)
        .where(eq(subscriptions.id, sub!.id));
      expect(row?.status).toBe('expired');
    },
    { timeout: 15_000, interval: 200 },
  );
  const types = (await h.db.select().from(outbox))
    .filter((e) => (e.payload as { subscription_id?: string }).subscription_id === sub!.id)
    .map((e) => e.type);
  expect(types.filter((t) => t === 'catalog.subscription.expiring')).toHaveLength(1);
  expect(types.filter((t) => t === 'catalog.subscription.expired')).toHaveLength(1);
});
