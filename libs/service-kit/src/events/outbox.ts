import { randomUUID } from 'node:crypto';
import type { EventData, EventType } from '@cartable/contracts';
import { eventSchemas } from '@cartable/contracts';
import type { Db } from '../db/database.ts';
import { outbox } from './tables.ts';

/**
 * Writes an event in the caller's transaction: it is published only if the change commits,
 * and it is never lost once the change has committed (the relay retries until acknowledged).
 */
export async function recordEvent<T extends EventType>(tx: Db, type: T, data: EventData<T>): Promise<string> {
  const payload = eventSchemas[type].parse(data);
  const id = randomUUID();
  await tx.insert(outbox).values({ id, type, payload });
  return id;
}
