import { silentLogger } from '@mt/testing';
import { KeyedRangeHints, RangeHints, type SortKeyRow } from './range-hints';

type Field = 'title_key' | 'year' | 'created_at' | 'updated_at';
const FIELDS: readonly Field[] = ['title_key', 'year', 'created_at', 'updated_at'];

const rows = (n: number): SortKeyRow<Field>[] =>
  Array.from({ length: n }, (_, i) => ({
    title_key: `t${String(i).padStart(4, '0')}`,
    year: i % 10 === 0 ? null : 1900 + i,
    created_at: new Date(1_000_000 + i),
    updated_at: new Date(2_000_000 + i),
  }));

function hints(entries: number, sample: SortKeyRow<Field>[], minEntries = 100) {
  return new RangeHints<Field>({ fields: FIELDS, loadSample: async () => sample, countEntries: async () => entries, logger: silentLogger(), sampleSize: sample.length, minEntries });
}

describe('RangeHints', () => {
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

  it('counts the rank from a cursor key when given: a bound about a page past the key, at any depth', async () => {
    const h = hints(10_000, rows(100));
    await h.refresh();
    // 60 sampled rows come before t0060; 1 000 entries more are 10 sampled rows further.
    expect(h.bound('title_key', 1, 1000, 10_000, 't0060')).toBe('t0070');
    // Between sampled values: counted from the first value not before the key.
    expect(h.bound('title_key', 1, 1000, 10_000, 't0060x')).toBe('t0071');
    expect(h.bound('title_key', -1, 1000, 10_000, 't0060')).toBe('t0050');
    expect(h.bound('created_at', 1, 1000, 10_000, new Date(1_000_080))).toEqual(new Date(1_000_090));
    // Deeper than half the collection is fine after a key; past the last sampled value there is no bound.
    expect(h.bound('title_key', 1, 1000, 10_000, 't0095')).toBeUndefined();
  });

  it('leaves missing years out of the sampled years', async () => {
    const h = hints(10_000, rows(100));
    await h.refresh();
    expect(h.bound('year', 1, 300, 10_000)).toBe(1904);
  });

  it('samples again when the collection grew by more than a quarter', async () => {
    let entries = 10_000;
    let loads = 0;
    const h = new RangeHints<Field>({
      fields: FIELDS,
      loadSample: async () => {
        loads++;
        return rows(100);
      },
      countEntries: async () => entries,
      logger: silentLogger(),
      minEntries: 100,
    });
    h.start({ timer: false });
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

  it('takes no sample on observe() until started: on MongoDB hints stay off', async () => {
    let loads = 0;
    const h = new RangeHints<Field>({ fields: FIELDS, loadSample: async () => (loads++, rows(100)), countEntries: async () => 10_000, logger: silentLogger(), minEntries: 100 });
    h.observe(10_000);
    await new Promise((resolve) => setImmediate(resolve));
    expect(loads).toBe(0);
    expect(h.bound('title_key', 1, 1000, 10_000)).toBeUndefined();
  });

  it('samples a stale sample again at the next observe(), by age as well as by count', async () => {
    let loads = 0;
    const h = new RangeHints<Field>({ fields: FIELDS, loadSample: async () => (loads++, rows(100)), countEntries: async () => 10_000, logger: silentLogger(), minEntries: 100, refreshIntervalMs: 0 });
    h.start({ timer: false });
    h.observe(10_000);
    await h.refresh();
    expect(loads).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    h.observe(10_000);
    await h.refresh();
    expect(loads).toBe(2);
  });
});

describe('KeyedRangeHints', () => {
  const keyed = (maxKeys = 10) => {
    const loaded: string[] = [];
    const hints = new KeyedRangeHints<Field>({
      fields: FIELDS,
      loadSample: async (key) => (loaded.push(key), rows(100)),
      countEntries: async () => 10_000,
      logger: silentLogger(),
      minEntries: 100,
      maxKeys,
    });
    return { hints, loaded };
  };

  it('gives nothing until started', () => {
    const { hints, loaded } = keyed();
    expect(hints.forKey('u1', 10_000)).toBeUndefined();
    expect(loaded).toEqual([]);
  });

  it('samples each key on its first read and bounds from the second', async () => {
    const { hints, loaded } = keyed();
    hints.start();
    const first = hints.forKey('u1', 10_000)!;
    expect(first.bound('title_key', 1, 1000, 10_000)).toBeUndefined();
    await first.refresh();
    expect(hints.forKey('u1', 10_000)!.bound('title_key', 1, 1000, 10_000)).toBe('t0010');
    await hints.forKey('u2', 10_000)!.refresh();
    expect(loaded).toEqual(['u1', 'u2']);
  });

  it('keeps at most maxKeys samples, dropping the least recently read', async () => {
    const { hints, loaded } = keyed(2);
    hints.start();
    for (const key of ['a', 'b', 'a', 'c', 'a', 'b']) {
      hints.forKey(key, 10_000);
      await new Promise((resolve) => setImmediate(resolve));
    }
    // a, b sampled; c evicts b (a was read more recently); b comes back as a new sample.
    expect(loaded).toEqual(['a', 'b', 'c', 'b']);
  });
});
