import { randomUUID } from 'node:crypto';
import { type Envelope, type EventData, type EventType, eventSchemas } from '@cartable/contracts';
import type { Logger } from 'pino';
import type { Db } from './db/database.ts';
import type { OutboxRelay } from './events/relay.ts';
import { outbox } from './events/tables.ts';

/** An event whose change is committed: recorded by a write of this process, or applied from a stream. */
export interface CommittedEvent<T extends EventType = EventType> {
  id: string;
  type: T;
  data: EventData<T>;
  /** `recorded`: a write of this process; `consumed`: another service's event, applied by a consumer. */
  origin: 'recorded' | 'consumed';
}

/** A write in progress: the database inside its transaction, and the events it records. */
export interface Transaction {
  readonly db: Db;
  /**
   * Writes an event to the outbox in this transaction (published only if the change commits);
   * the reactions other modules registered for its type run now, in the same transaction.
   */
  record<T extends EventType>(type: T, data: EventData<T>): Promise<string>;
  /** Many events of one type in one insert (a listing may answer hundreds of saved searches); no reactions run for them. */
  recordAll<T extends EventType>(type: T, data: ReadonlyArray<EventData<T>>): Promise<string[]>;
  /**
   * What must follow the commit before the write answers (a copy the gateway reads, written
   * through): run in order once committed, awaited; a failure is logged, never undoes the change.
   * Nothing runs if the transaction rolls back.
   */
  afterCommit(task: () => Promise<void>): void;
}

/** What another module does, in the same transaction, because an event was recorded. */
export type Reaction<T extends EventType = EventType> = (
  t: Transaction,
  event: Omit<CommittedEvent<T>, 'origin'>,
) => Promise<void>;

/** What hears of committed events (a cache, a memo, an in-memory index): never fails the write. */
export type CommittedListener<T extends EventType = EventType> = (event: CommittedEvent<T>) => void;

export interface UnitOfWorkOptions {
  db: Db;
  /** The outbox relay (absent in a service that publishes nothing, or in a test without NATS). */
  relay?: Pick<OutboxRelay, 'kick'> | undefined;
  log: Pick<Logger, 'warn'>;
}

/**
 * One unit of work per service: a write runs in one transaction and records its events there;
 * other modules' reactions join that transaction; after the commit the relay is kicked once and
 * the listeners are told which events were committed. Caches listen to the events they depend
 * on, so no write clears a cache by hand, and a cache never hears of a change that rolled back.
 */
export class UnitOfWork {
  readonly #options: UnitOfWorkOptions;
  readonly #reactions = new Map<EventType, Reaction[]>();
  readonly #listeners = new Map<EventType, Set<CommittedListener>>();

  constructor(options: UnitOfWorkOptions) {
    this.#options = options;
  }

  get db(): Db {
    return this.#options.db;
  }

  /** Registers what must happen in the same transaction whenever `type` is recorded. */
  react<T extends EventType>(type: T, reaction: Reaction<T>): void {
    const list = this.#reactions.get(type) ?? [];
    list.push(reaction as unknown as Reaction);
    this.#reactions.set(type, list);
  }

  /** Hears every committed event of these types (recorded here or consumed); returns the way to stop. */
  listen<T extends EventType>(types: readonly T[], listener: CommittedListener<T>): () => void {
    for (const type of types) {
      const set = this.#listeners.get(type) ?? new Set();
      set.add(listener as CommittedListener);
      this.#listeners.set(type, set);
    }
    return () => {
      for (const type of types) this.#listeners.get(type)?.delete(listener as CommittedListener);
    };
  }

  /** Runs `work` in one transaction; once it commits, kicks the relay, tells the listeners and runs the `afterCommit` tasks. */
  async run<R>(work: (t: Transaction) => Promise<R>): Promise<R> {
    const recorded: Array<Omit<CommittedEvent, 'origin'>> = [];
    const tasks: Array<() => Promise<void>> = [];
    const result = await this.#options.db.transaction(async (tx) => {
      const t: Transaction = {
        db: tx,
        record: async (type, data) => {
          const payload = eventSchemas[type].parse(data) as EventData<typeof type>;
          const id = randomUUID();
          await tx.insert(outbox).values({ id, type, payload });
          const event = { id, type, data: payload };
          recorded.push(event);
          for (const reaction of this.#reactions.get(type) ?? []) await reaction(t, event);
          return id;
        },
        recordAll: async (type, list) => {
          if (this.#reactions.has(type)) throw new Error(`${type} has reactions: record them one by one`);
          const events = list.map((data) => ({
            id: randomUUID(),
            type,
            data: eventSchemas[type].parse(data) as EventData<typeof type>,
          }));
          if (events.length) await tx.insert(outbox).values(events.map((e) => ({ id: e.id, type, payload: e.data })));
          recorded.push(...events);
          return events.map((e) => e.id);
        },
        afterCommit: (task) => {
          tasks.push(task);
        },
      };
      return work(t);
    });
    if (recorded.length) {
      this.#options.relay?.kick();
      for (const event of recorded) this.#announce({ ...event, origin: 'recorded' });
    }
    for (const task of tasks) {
      try {
        await task();
      } catch (err) {
        this.#options.log.warn({ err }, 'a task after the commit failed');
      }
    }
    return result;
  }

  /** An event of another service, applied by a consumer whose transaction has committed. */
  consumed(event: Envelope): void {
    this.#announce({ id: event.id, type: event.type, data: event.data, origin: 'consumed' } as CommittedEvent);
  }

  #announce(event: CommittedEvent) {
    for (const listener of this.#listeners.get(event.type) ?? []) {
      try {
        listener(event);
      } catch (err) {
        this.#options.log.warn({ err, type: event.type }, 'a listener of committed events failed');
      }
    }
  }
}
