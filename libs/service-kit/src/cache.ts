import { LRUCache } from 'lru-cache';

export interface CacheOptions<K, V> {
  /** Most entries kept; the least recently read go first. */
  max: number;
  /** How long an entry is served, at most (another replica's writes are seen after this). */
  ttlMs: number;
  /** Most memory kept, as `sizeOf` counts it (bytes, say); unbounded when absent. */
  maxSize?: number;
  sizeOf?: (value: V, key: K) => number;
}

/**
 * Values loaded from the database and kept a short while, cleared by the committed events they
 * depend on (a listener of the unit of work calls `clear`). A load that began before a clear
 * returns its value but does not keep it: it may have read the state the write has just changed,
 * and would serve it for the rest of its time. Concurrent reads of one key share one load.
 */
export class Cache<K extends {}, V extends {}> {
  readonly #values: LRUCache<K, V>;
  readonly #loading = new Map<K, { generation: number; value: Promise<V> }>();
  /** Bumped by each clear: a load keeps its value only if none happened meanwhile. */
  #generation = 0;

  constructor(options: CacheOptions<K, V>) {
    this.#values = new LRUCache<K, V>({
      max: options.max,
      ttl: options.ttlMs,
      ...(options.maxSize && options.sizeOf
        ? { maxSize: options.maxSize, sizeCalculation: (value: V, key: K) => Math.max(1, options.sizeOf!(value, key)) }
        : {}),
    });
  }

  /**
   * The kept value, or `load`'s (kept unless a clear came while it ran). `load` may ask whether it
   * is still current before it shares what it read elsewhere (a copy in Redis, say).
   */
  read(key: K, load: (current: () => boolean) => Promise<V>): Promise<V> {
    const kept = this.#values.get(key);
    if (kept !== undefined) return Promise.resolve(kept);
    const generation = this.#generation;
    const running = this.#loading.get(key);
    if (running?.generation === generation) return running.value;
    const value = load(() => generation === this.#generation).then((loaded) => {
      if (generation === this.#generation) this.#values.set(key, loaded);
      return loaded;
    });
    const entry = { generation, value };
    this.#loading.set(key, entry);
    const forget = () => {
      if (this.#loading.get(key) === entry) this.#loading.delete(key);
    };
    value.then(forget, forget);
    return value;
  }

  /** The kept value without loading it. */
  peek(key: K): V | undefined {
    return this.#values.get(key);
  }

  /** Drops every value, and keeps none that a load under way would bring back. */
  clear(): void {
    this.#generation++;
    this.#values.clear();
    this.#loading.clear();
  }

  get size(): number {
    return this.#values.size;
  }
}
