import type { Logger } from '@mt/logging';
import type { Direction, SortField, SortValue } from './listing-plan';

export interface SortKeySampleRow {
  title_key: string;
  year: number | null;
  created_at: Date;
  updated_at: Date;
}

export interface SortKeyHintsOptions {
  /** A random sample of at most `size` entries' sort keys. */
  loadSample: (size: number) => Promise<SortKeySampleRow[]>;
  /** The current number of entries. */
  countEntries: () => Promise<number>;
  logger: Logger;
  sampleSize?: number;
  /** Below this many entries a full sort is cheap: no hints. */
  minEntries?: number;
  refreshIntervalMs?: number;
  /**
   * Aimed-at rank = rows needed × rankFactor + rankPadding (see rankFor). Tests shrink both to exercise
   * bounded and widened queries on tiny collections.
   */
  rankFactor?: number;
  rankPadding?: number;
}

interface Sample {
  entries: number;
  size: number;
  /** Ascending, nulls left out. */
  sorted: Record<SortField, SortValue[]>;
}

const FIELDS: readonly SortField[] = ['title_key', 'year', 'created_at', 'updated_at'];

/** Never bound at the very first sampled values: their rank varies most. */
const MIN_SAMPLE_INDEX = 3;

const compare = (a: SortValue, b: SortValue): number => {
  const x = a instanceof Date ? a.getTime() : a;
  const y = b instanceof Date ? b.getTime() : b;
  return x < y ? -1 : x > y ? 1 : 0;
};

/**
 * Range hints for sorted listings. MongoDB walks the `{key, _id}` indexes in order and stops after a
 * page; some MongoDB-compatible engines (the DocumentDB test sandbox among them) cannot, and sort every
 * match before returning the first 20. A periodically refreshed random sample of the sort keys gives,
 * for "the first n rows in this order", a key value that very probably lies beyond row n; the query adds
 * `key <= bound` (`>=` descending), which both kinds of engine answer from the index by reading only
 * about that many rows. Hints only narrow the work, never the answer: when the bounded query returns
 * fewer rows than the page needs, the repository widens the bound and finally drops it.
 */
export class SortKeyHints {
  private sample: Sample | undefined;
  private refreshing: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly sampleSize: number;
  private readonly minEntries: number;
  private readonly refreshIntervalMs: number;
  private readonly rankFactor: number;
  private readonly rankPadding: number;

  constructor(private readonly options: SortKeyHintsOptions) {
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
   * A bound such that about `rank` entries of the whole collection lie before it in `direction`, or
   * undefined when no useful hint exists (small collection, no sample yet, rank beyond the sample).
   */
  bound(field: SortField, direction: Direction, rank: number, entries: number): SortValue | undefined {
    const sample = this.sample;
    if (!sample || entries < this.minEntries || rank >= entries / 2) return undefined;
    const values = sample.sorted[field];
    const index = Math.max(MIN_SAMPLE_INDEX, Math.ceil((rank * sample.size) / entries));
    if (index >= values.length) return undefined;
    return direction === 1 ? values[index] : values[values.length - 1 - index];
  }

  /** Called with each fresh entry count: a collection that grew or shrank by a quarter is sampled again. */
  observe(entries: number): void {
    const sample = this.sample;
    const stale = sample ? Math.abs(entries - sample.entries) > sample.entries / 4 : entries >= this.minEntries;
    if (stale) void this.refresh();
  }

  start(): void {
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
      const sorted = {} as Record<SortField, SortValue[]>;
      for (const field of FIELDS) {
        sorted[field] = rows
          .map((row) => row[field])
          .filter((value): value is SortValue => value !== null && value !== undefined)
          .sort(compare);
      }
      this.sample = { entries, size: rows.length, sorted };
    } catch (error) {
      this.options.logger.warn({ err: { name: (error as Error).name, message: (error as Error).message } }, 'sort key sample failed');
    }
  }
}
