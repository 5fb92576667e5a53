import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigserial,
  index,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';

/**
 * Every service that publishes or consumes events includes these tables in its schema
 * (re-export them from its `db/schema.ts`), so drizzle-kit puts them in its migrations.
 */
export const outbox = pgTable(
  'outbox',
  {
    id: uuid('id').primaryKey(),
    /**
     * Write order. Two changes to one aggregate are serialised by its row lock, so the second
     * row takes its number after the first committed: publishing by position keeps their order.
     */
    position: bigserial('position', { mode: 'number' }).notNull(),
    type: text('type').notNull(),
    payload: jsonb('payload').notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull().defaultNow(),
    /** Null until the relay has had JetStream's acknowledgement. */
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [index('outbox_unsent_idx').on(t.position).where(sql`sent_at is null`)],
);

/** Idempotency: an event id handled once per consumer, recorded in the handler's transaction. */
export const processedEvents = pgTable(
  'processed_events',
  {
    consumer: text('consumer').notNull(),
    eventId: uuid('event_id').notNull(),
    processedAt: timestamp('processed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.consumer, t.eventId] })],
);

/**
 * Condition of a projection's upsert: replace the row only with a higher version than it holds
 * (`onConflictDoUpdate({ target, set, setWhere: isNewer(table.version) })`).
 */
export const isNewer = (version: AnyPgColumn) => sql`${version} < excluded.${sql.identifier(version.name)}`;
