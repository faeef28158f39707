import { LRUCache } from 'lru-cache';

/**
 * Counts of listing filters, valid for one version of the catalog. Every write that can change a count
 * (create, patch, import) increments the version in the same transaction as the write, and a listing
 * reads the current version before counting, so a cached count is only ever served for the exact data
 * it was computed on, on every instance. Counting is the one part of a listing that grows with the
 * number of matches; repeated searches of an unchanged catalog skip it.
 */
export class MatchCountCache {
  private readonly counts: LRUCache<string, { version: number; counts: number[] }>;

  constructor(maxEntries = 1000) {
    this.counts = new LRUCache({ max: maxEntries });
  }

  get(key: string, version: number): number[] | undefined {
    const hit = this.counts.get(key);
    if (!hit) return undefined;
    if (hit.version !== version) {
      this.counts.delete(key);
      return undefined;
    }
    return hit.counts;
  }

  set(key: string, version: number, counts: number[]): void {
    this.counts.set(key, { version, counts });
  }
}
