import { MatchCountCache } from './match-count-cache';

describe('MatchCountCache', () => {
  it('serves counts only for the catalog version they were computed at', () => {
    const cache = new MatchCountCache();
    cache.set('q=a', 7, [3, 1]);
    expect(cache.get('q=a', 7)).toEqual([3, 1]);
    expect(cache.get('q=a', 8)).toBeUndefined();
    // A newer version evicts the stale count for good.
    expect(cache.get('q=a', 7)).toBeUndefined();
  });

  it('keeps at most its capacity, dropping the least recently used', () => {
    const cache = new MatchCountCache(2);
    cache.set('a', 1, [1]);
    cache.set('b', 1, [2]);
    cache.get('a', 1);
    cache.set('c', 1, [3]);
    expect(cache.get('b', 1)).toBeUndefined();
    expect(cache.get('a', 1)).toEqual([1]);
    expect(cache.get('c', 1)).toEqual([3]);
  });
});
