import type { Logger } from '@mt/logging';
import { LRUCache } from 'lru-cache';
import type { Direction } from '../../domain/catalog-listing';

export type { Direction };

export type SortValue = string | number | Date;
/** The sort keys of one sampled row; a missing value is left out of that field's sample. */
export type SortKeyRow<F extends string> = Record<F, SortValue | null | undefined>;

export interface RangeHintsOptions<F extends string> {
  /** The sort keys sampled (each field is sorted separately). */
  fields: readonly F[];
  /** A random sample of at most `size` rows' sort keys. */
  loadSample: (size: number) => Promise<SortKeyRow<F>[]>;
  /** The current number of rows. */
  countEntries: () => Promise<number>;
  logger: Logger;
  sampleSize?: number;
  /** Below this many rows a full sort is cheap: no hints. */
  minEntries?: number;
  /** A sample older than this is taken again (by the timer of start(), or at the next observe()). */
  refreshIntervalMs?: number;
  /**
   * Aimed-at rank = rows needed × rankFactor + rankPadding (see rankFor). Tests shrink both to exercise
   * bounded and widened queries on tiny collections.
   */
  rankFactor?: number;
  rankPadding?: number;
}

interface Sample<F extends string> {
  entries: number;
  size: number;
  takenAt: number;
  /** Ascending, missing values left out. */
  sorted: Record<F, SortValue[]>;
}

/** Each retry of a read whose range proved too small aims four times deeper. */
const WIDENING = 4;

/** Never bound at the very first sampled values: their rank varies most. */
const MIN_SAMPLE_INDEX = 3;

const compare = (a: SortValue, b: SortValue): number => {
  const x = a instanceof Date ? a.getTime() : a;
  const y = b instanceof Date ? b.getTime() : b;
  return x < y ? -1 : x > y ? 1 : 0;
};

/** How many of the ascending sampled `values` come before `from` in `direction`. */
function sampledBefore(values: readonly SortValue[], from: SortValue, direction: Direction): number {
  let low = 0;
  let high = values.length;
  // The first index whose value is >= from (ascending), or > from (descending, counted from the end).
  while (low < high) {
    const middle = (low + high) >> 1;
    const order = compare(values[middle]!, from);
    if (order < 0 || (direction === -1 && order === 0)) low = middle + 1;
    else high = middle;
  }
  return direction === 1 ? low : values.length - low;
}

/**
 * Range hints for sorted reads, for servers that sort every match instead of walking an index in order.
 *
 * MongoDB walks a `{key, _id}` index in order and stops after a page. Some MongoDB-compatible engines (the
 * DocumentDB test sandbox among them) cannot: they sort every match before returning the first 20, so a page
 * costs as much as the whole collection. A periodically refreshed random sample of the sort keys gives, for
 * "the first n rows in this order", a key value that very probably lies beyond row n; the query adds
 * `key <= bound` (`>=` descending), which both kinds of engine answer from the index by reading only about
 * that many rows. Hints only narrow the work, never the answer: when the bounded query returns fewer rows than
 * the page needs, the caller widens the bound and finally drops it.
 *
 * Inactive until `start()`: only the sorting store profile (store-profile.ts) creates and starts them, when
 * the connected server needs them; under the MongoDB profile no sample is ever taken.
 */
export class RangeHints<F extends string> {
  private sample: Sample<F> | undefined;
  private refreshing: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private active = false;
  private readonly sampleSize: number;
  private readonly minEntries: number;
  private readonly refreshIntervalMs: number;
  private readonly rankFactor: number;
  private readonly rankPadding: number;

  constructor(private readonly options: RangeHintsOptions<F>) {
    this.rankFactor = options.rankFactor ?? 1.5;
    this.rankPadding = options.rankPadding ?? 100;
    this.sampleSize = options.sampleSize ?? 2000;
    this.minEntries = options.minEntries ?? 5000;
    this.refreshIntervalMs = options.refreshIntervalMs ?? 60_000;
  }

  /**
   * The rank to aim a hint at for `needed` rows: generous for a first page, where sampled quantiles vary
   * most, and about 1.5 times the rows for deep pages (a hint that proves too tight costs one retry).
   */
  rankFor(needed: number): number {
    return needed * this.rankFactor + this.rankPadding;
  }

  /**
   * A bound such that about `rank` rows of the whole collection lie before it in `direction` (after `from`,
   * a cursor's key, when given), or undefined when no useful hint exists (small collection, no sample yet,
   * rank beyond the sample). From the start of the order, a bound past half the rows saves little (an offset
   * read skips them anyway); after a cursor's key, a bound about a page further always does.
   */
  bound(field: F, direction: Direction, rank: number, entries: number, from?: SortValue): SortValue | undefined {
    const sample = this.sample;
    if (!sample || entries < this.minEntries) return undefined;
    if (from === undefined && rank >= entries / 2) return undefined;
    const values = sample.sorted[field];
    const before = from === undefined ? 0 : sampledBefore(values, from, direction);
    const index = before + Math.max(MIN_SAMPLE_INDEX, Math.ceil((rank * sample.size) / entries));
    if (index >= values.length) return undefined;
    return direction === 1 ? values[index] : values[values.length - 1 - index];
  }

  /**
   * Reads with a bound aimed at `rank` (undefined: no useful hint), widening while the rows fall short of
   * `expected`, finally without a bound: the rows are the same either way, only the work differs. `from`:
   * the read starts after this key (a cursor page), and `rank` counts rows from there.
   */
  async readNarrowed<T>(
    field: F,
    direction: Direction,
    rank: number,
    entries: number,
    expected: number,
    read: (bound: SortValue | undefined) => Promise<T[]>,
    from?: SortValue,
  ): Promise<T[]> {
    for (let aim = rank; ; aim *= WIDENING) {
      const bound = this.bound(field, direction, aim, entries, from);
      const rows = await read(bound);
      if (bound === undefined || rows.length >= expected) return rows;
    }
  }

  /** Called with each fresh row count: a collection that grew or shrank by a quarter, or an old sample, is sampled again. */
  observe(entries: number): void {
    if (!this.active) return;
    const sample = this.sample;
    const stale = sample
      ? Math.abs(entries - sample.entries) > sample.entries / 4 || Date.now() - sample.takenAt > this.refreshIntervalMs
      : entries >= this.minEntries;
    if (stale) void this.refresh();
  }

  /** Activates the hints; with `timer`, the sample is also refreshed every refreshIntervalMs. */
  start({ timer = true } = {}): void {
    this.active = true;
    if (!timer) return;
    void this.refresh();
    this.timer ??= setInterval(() => void this.refresh(), this.refreshIntervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Takes a new sample (one at a time); failures keep the previous sample and are only logged. */
  refresh(): Promise<void> {
    this.refreshing ??= this.takeSample().finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  private async takeSample(): Promise<void> {
    try {
      const entries = await this.options.countEntries();
      if (entries < this.minEntries) {
        this.sample = undefined;
        return;
      }
      const rows = await this.options.loadSample(this.sampleSize);
      const sorted = {} as Record<F, SortValue[]>;
      for (const field of this.options.fields) {
        sorted[field] = rows
          .map((row) => row[field])
          .filter((value): value is SortValue => value !== null && value !== undefined)
          .sort(compare);
      }
      this.sample = { entries, size: rows.length, takenAt: Date.now(), sorted };
    } catch (error) {
      this.options.logger.warn({ err: { name: (error as Error).name, message: (error as Error).message } }, 'sort key sample failed');
    }
  }
}

export interface KeyedRangeHintsOptions<F extends string> extends Omit<RangeHintsOptions<F>, 'loadSample' | 'countEntries'> {
  loadSample: (key: string, size: number) => Promise<SortKeyRow<F>[]>;
  countEntries: (key: string) => Promise<number>;
  /** Keys (e.g. users) whose samples are kept; the least recently read is dropped first. */
  maxKeys?: number;
}

/**
 * Range hints per key (a personal list is sorted within its owner's entries): one sample per recently read
 * key, taken on demand (no timers), refreshed when the key's count moved by a quarter or the sample aged.
 * Inactive until `start()`, like RangeHints.
 */
export class KeyedRangeHints<F extends string> {
  private readonly byKey: LRUCache<string, RangeHints<F>>;
  private active = false;

  constructor(private readonly options: KeyedRangeHintsOptions<F>) {
    this.byKey = new LRUCache({ max: options.maxKeys ?? 1000 });
  }

  start(): void {
    this.active = true;
  }

  /** The hints of `key` after noting its current row count, or undefined when inactive. */
  forKey(key: string, entries: number): RangeHints<F> | undefined {
    if (!this.active) return undefined;
    let hints = this.byKey.get(key);
    if (!hints) {
      const { loadSample, countEntries } = this.options;
      hints = new RangeHints<F>({ ...this.options, loadSample: (size) => loadSample(key, size), countEntries: () => countEntries(key) });
      hints.start({ timer: false });
      this.byKey.set(key, hints);
    }
    hints.observe(entries);
    return hints;
  }
}
