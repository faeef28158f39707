import { VersionedCache } from './versioned-cache';

describe('VersionedCache', () => {
  it('serves a value only for the catalog version it was computed at', () => {
    const cache = new VersionedCache<number[]>({ maxEntries: 10 });
    cache.set('q=a', 7, [3, 1]);
    expect(cache.get('q=a', 7)).toEqual([3, 1]);
    expect(cache.get('q=a', 8)).toBeUndefined();
    // A newer version evicts the stale value for good.
    expect(cache.get('q=a', 7)).toBeUndefined();
  });

  it('keeps at most its capacity, dropping the least recently used', () => {
    const cache = new VersionedCache<number[]>({ maxEntries: 2 });
    cache.set('a', 1, [1]);
    cache.set('b', 1, [2]);
    cache.get('a', 1);
    cache.set('c', 1, [3]);
    expect(cache.get('b', 1)).toBeUndefined();
    expect(cache.get('a', 1)).toEqual([1]);
    expect(cache.get('c', 1)).toEqual([3]);
  });

  it('keeps the values within their total size, dropping the least recently used', () => {
    const cache = new VersionedCache<string[]>({ maxEntries: 10, maxSize: 5, sizeOf: (rows) => rows.length });
    cache.set('a', 1, ['1', '2']);
    cache.set('b', 1, ['3', '4']);
    cache.set('c', 1, ['5', '6']);
    expect(cache.get('a', 1)).toBeUndefined();
    expect(cache.get('b', 1)).toEqual(['3', '4']);
    expect(cache.get('c', 1)).toEqual(['5', '6']);
  });

  it('stops serving a value once it is older than its age limit', async () => {
    const cache = new VersionedCache<number>({ maxEntries: 10, maxAgeMs: 30 });
    cache.set('a', 1, 42);
    expect(cache.get('a', 1)).toBe(42);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(cache.get('a', 1)).toBeUndefined();
  });

  it('loads a value once per version and key', async () => {
    const cache = new VersionedCache<number>({ maxEntries: 10 });
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.getOrLoad('a', 1, load)).toBe(1);
    expect(await cache.getOrLoad('a', 1, load)).toBe(1);
    expect(await cache.getOrLoad('a', 2, load)).toBe(2);
    expect(loads).toBe(2);
  });
});
