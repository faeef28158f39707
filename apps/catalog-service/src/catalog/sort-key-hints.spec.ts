import { silentLogger } from '@mt/testing';
import { SortKeyHints, type SortKeySampleRow } from './sort-key-hints';

const rows = (n: number): SortKeySampleRow[] =>
  Array.from({ length: n }, (_, i) => ({
    title_key: `t${String(i).padStart(4, '0')}`,
    year: i % 10 === 0 ? null : 1900 + i,
    created_at: new Date(1_000_000 + i),
    updated_at: new Date(2_000_000 + i),
  }));

function hints(entries: number, sample: SortKeySampleRow[], minEntries = 100) {
  return new SortKeyHints({ loadSample: async () => sample, countEntries: async () => entries, logger: silentLogger(), sampleSize: sample.length, minEntries });
}

describe('SortKeyHints', () => {
  it('gives no bound before a sample exists or below the size threshold', async () => {
    const small = hints(50, rows(50));
    expect(small.bound('title_key', 1, 10, 50)).toBeUndefined();
    await small.refresh();
    expect(small.bound('title_key', 1, 10, 50)).toBeUndefined();
  });

  it('maps a rank in the collection to a sampled key, in both directions', async () => {
    // 100 sampled rows of 10 000 entries: each sampled row stands for about 100 entries.
    const h = hints(10_000, rows(100));
    await h.refresh();
    expect(h.bound('title_key', 1, 1000, 10_000)).toBe('t0010');
    expect(h.bound('title_key', -1, 1000, 10_000)).toBe('t0089');
    expect(h.bound('created_at', -1, 1000, 10_000)).toEqual(new Date(1_000_089));
    // Never the very first sampled values, never half the collection or more.
    expect(h.bound('title_key', 1, 1, 10_000)).toBe('t0003');
    expect(h.bound('title_key', 1, 5000, 10_000)).toBeUndefined();
  });

  it('leaves missing years out of the sampled years', async () => {
    const h = hints(10_000, rows(100));
    await h.refresh();
    expect(h.bound('year', 1, 300, 10_000)).toBe(1904);
  });

  it('samples again when the collection grew by more than a quarter', async () => {
    let entries = 10_000;
    let loads = 0;
    const h = new SortKeyHints({
      loadSample: async () => {
        loads++;
        return rows(100);
      },
      countEntries: async () => entries,
      logger: silentLogger(),
      minEntries: 100,
    });
    await h.refresh();
    expect(loads).toBe(1);
    h.observe(12_000);
    await new Promise((resolve) => setImmediate(resolve));
    expect(loads).toBe(1);
    entries = 13_000;
    h.observe(13_000);
    // observe() starts the refresh; refresh() joins the one in flight.
    await h.refresh();
    expect(loads).toBe(2);
  });
});
