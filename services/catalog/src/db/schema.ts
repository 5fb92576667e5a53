/**
 * Every table of catalog's database, module by module (each module owns its own schema file):
 * what drizzle and the migrations read.
 */
export { idempotencyKeys, outbox, processedEvents } from '@cartable/service-kit';
export * from '../modules/class-lists/db/schema.ts';
export * from '../modules/exchanges/db/schema.ts';
export * from '../modules/listings/db/schema.ts';
export * from '../modules/members/db/schema.ts';
export * from '../modules/monetisation/db/schema.ts';
export * from '../modules/saved-searches/db/schema.ts';
export * from '../modules/search/db/schema.ts';
export * from '../modules/taxonomy/db/schema.ts';
export * from '../modules/trust/db/schema.ts';
