import { LRUCache } from 'lru-cache';

export interface VersionedCacheOptions<T> {
  /** How many keys are kept (least recently used dropped first). */
  maxEntries: number;
  /** With `sizeOf`: the most the cached values may add up to, in the units `sizeOf` counts. */
  maxSize?: number;
  sizeOf?: (value: T) => number;
  /**
   * How long a value is served at all. The version already decides freshness for every write the service
   * makes; the age bounds how long a change made past the service (a hand edit of the database) stays unseen.
   */
  maxAgeMs?: number;
}

/**
 * Values computed from the catalog as it was at one version. Every write that can change a listing (create,
 * patch, delete, import, merge, a creator released) increments the version in the same transaction as the
 * write (or, without one, right after it and before it answers), and a listing reads the current version
 * before it looks here, so a value is only served for the data it was computed on, on every instance.
 */
export class VersionedCache<T> {
  private readonly values: LRUCache<string, { version: number; value: T }>;

  constructor(options: VersionedCacheOptions<T>) {
    const { sizeOf } = options;
    this.values = new LRUCache<string, { version: number; value: T }>({
      max: options.maxEntries,
      ...(options.maxAgeMs ? { ttl: options.maxAgeMs } : {}),
      ...(sizeOf && options.maxSize ? { maxSize: options.maxSize, sizeCalculation: (hit) => Math.max(1, sizeOf(hit.value)) } : {}),
    });
  }

  get(key: string, version: number): T | undefined {
    const hit = this.values.get(key);
    if (!hit) return undefined;
    if (hit.version !== version) {
      this.values.delete(key);
      return undefined;
    }
    return hit.value;
  }

  set(key: string, version: number, value: T): void {
    this.values.set(key, { version, value });
  }

  /** The value kept for `key` at `version`, else what `load` gives, kept for next time. */
  async getOrLoad(key: string, version: number, load: () => Promise<T>): Promise<T> {
    const cached = this.get(key, version);
    if (cached !== undefined) return cached;
    const value = await load();
    this.set(key, version, value);
    return value;
  }
}
