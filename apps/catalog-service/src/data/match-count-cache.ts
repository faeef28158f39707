/**
 * Counts of listing filters, valid for one version of the catalog. Every write that can change a count
 * (create, patch, import) increments the version in the same transaction as the write, and a listing
 * reads the current version before counting, so a cached count is only ever served for the exact data
 * it was computed on, on every instance. Counting is the one part of a listing that grows with the
 * number of matches; repeated searches of an unchanged catalog skip it.
 */
export class MatchCountCache {
  private readonly counts = new Map<string, { version: number; counts: number[] }>();

  constructor(private readonly maxEntries = 1000) {}

  get(key: string, version: number): number[] | undefined {
    const hit = this.counts.get(key);
    if (!hit) return undefined;
    if (hit.version !== version) {
      this.counts.delete(key);
      return undefined;
    }
    // Map order is insertion order: re-insert to keep the most recently used last.
    this.counts.delete(key);
    this.counts.set(key, hit);
    return hit.counts;
  }

  set(key: string, version: number, counts: number[]): void {
    this.counts.delete(key);
    this.counts.set(key, { version, counts });
    while (this.counts.size > this.maxEntries) {
      const oldest = this.counts.keys().next();
      if (oldest.done) break;
      this.counts.delete(oldest.value);
    }
  }
}
