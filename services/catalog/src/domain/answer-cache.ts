import { LRUCache } from 'lru-cache';

/**
 * Answers kept a few seconds, or until a write of this replica clears them (forgetListings in
 * books.ts). A read that began before a clear does not keep what it read: it may hold the state
 * the write has just changed, and would serve it for the rest of the time.
 */
export class AnswerCache<K extends {}, V extends {}> {
  readonly #answers: LRUCache<K, V>;
  /** Bumped by each clear: a read keeps its answer only if none happened meanwhile. */
  #generation = 0;

  constructor(options: { max: number; ttlMs: number }) {
    this.#answers = new LRUCache<K, V>({ max: options.max, ttl: options.ttlMs });
  }

  /** The kept answer, or `load`'s (kept unless a clear came while it ran). */
  async read(key: K, load: () => Promise<V>): Promise<V> {
    const kept = this.#answers.get(key);
    if (kept !== undefined) return kept;
    const generation = this.#generation;
    const answer = await load();
    if (generation === this.#generation) this.#answers.set(key, answer);
    return answer;
  }

  clear(): void {
    this.#generation++;
    this.#answers.clear();
  }
}
