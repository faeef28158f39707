import type { RateLimitRepository } from './rate-limit.repository';

export const RATE_LIMIT_WINDOW_MS = 60_000;
/** How long hits counted locally wait before they are added to the shared counter in Redis. */
export const RATE_LIMIT_SYNC_INTERVAL_MS = 100;

export interface RateLimitVerdict {
  limit: number;
  remaining: number;
  /** Seconds until the window resets (≥ 1). */
  resetSeconds: number;
  allowed: boolean;
}

export interface RateLimiterOptions {
  repository: Pick<RateLimitRepository, 'add'>;
  limitPerMinute: number;
  now?: () => number;
  syncIntervalMs?: number;
}

/** One subject's window as this gateway sees it. */
interface WindowCount {
  subject: string;
  window: number;
  /** The shared counter as Redis last returned it (every gateway's hits, ours included up to then). */
  shared: number;
  /** Hits counted here since, not yet sent to Redis. */
  pending: number;
  /** Hits a sync has sent to Redis whose answer (the new shared count) has not come back yet. */
  inFlight: number;
}

/** What this gateway knows of a window: the last shared count and every hit counted since. */
const countOf = (entry: WindowCount): number => entry.shared + entry.inFlight + entry.pending;

// The key outlives its window a little, so a slow clock on another gateway still finds it.
const ttlFor = (window: number, at: number) => (window + 1) * RATE_LIMIT_WINDOW_MS - at + 5_000;

/**
 * Fixed one-minute windows aligned to the clock: each subject (user or client IP) may make `limitPerMinute`
 * requests per window. Simple and O(1) in Redis; a client can burst up to twice the limit across a window
 * boundary, which is acceptable for a generous abuse limit.
 *
 * The counter lives in Redis, shared by every gateway. To keep a Redis round trip off every request, only
 * a subject's first request of a window waits for Redis; later ones are counted here against the last
 * shared count and added to Redis in one INCRBY every `syncIntervalMs` (which also brings back the other
 * gateways' hits). One gateway is therefore exact; with several, a subject can exceed the limit by what
 * the others admit within one sync interval. When a sync fails, the local counts are dropped and every
 * request asks Redis again, so an outage shows up at once (the middleware then fails open).
 */
export class RateLimiter {
  readonly limit: number;
  private readonly repository: Pick<RateLimitRepository, 'add'>;
  private readonly now: () => number;
  private readonly syncIntervalMs: number;
  private readonly counts = new Map<string, WindowCount>();
  private syncTimer: NodeJS.Timeout | undefined;
  private syncing: Promise<void> | undefined;

  constructor({ repository, limitPerMinute, now = Date.now, syncIntervalMs = RATE_LIMIT_SYNC_INTERVAL_MS }: RateLimiterOptions) {
    this.repository = repository;
    this.limit = limitPerMinute;
    this.now = now;
    this.syncIntervalMs = syncIntervalMs;
  }

  /** Counts a request locally when this window's count is known here; undefined when Redis must be asked. */
  tryHit(subject: string): RateLimitVerdict | undefined {
    const at = this.now();
    const window = Math.floor(at / RATE_LIMIT_WINDOW_MS);
    const known = this.counts.get(`${window}:${subject}`);
    if (!known) return undefined;
    known.pending += 1;
    this.scheduleSync();
    return this.verdict(countOf(known), window, at);
  }

  /** Counts one request of `subject`; rejects when Redis cannot count (only ever on a window's first request). */
  async hit(subject: string): Promise<RateLimitVerdict> {
    const local = this.tryHit(subject);
    if (local) return local;
    const at = this.now();
    const window = Math.floor(at / RATE_LIMIT_WINDOW_MS);
    const key = `${window}:${subject}`;
    const shared = await this.repository.add(subject, window, 1, ttlFor(window, at));
    // A concurrent first request may have created the entry meanwhile: keep its local hits.
    const entry = this.counts.get(key) ?? { subject, window, shared, pending: 0, inFlight: 0 };
    entry.shared = Math.max(entry.shared, shared);
    this.counts.set(key, entry);
    return this.verdict(countOf(entry), window, at);
  }

  /** Adds every locally counted hit to Redis now (shutdown, tests). */
  async flush(): Promise<void> {
    clearTimeout(this.syncTimer);
    await this.syncing;
    await this.syncAll();
  }

  private verdict(count: number, window: number, at: number): RateLimitVerdict {
    return {
      limit: this.limit,
      remaining: Math.max(0, this.limit - count),
      resetSeconds: Math.max(1, Math.ceil(((window + 1) * RATE_LIMIT_WINDOW_MS - at) / 1000)),
      allowed: count <= this.limit,
    };
  }

  private scheduleSync(): void {
    if (this.syncTimer) return;
    this.syncTimer = setTimeout(this.startSync, this.syncIntervalMs);
    this.syncTimer.unref();
  }

  /** The timer's callback, made once rather than on every schedule. */
  private readonly startSync = (): void => {
    this.syncing = this.syncAll().finally(() => (this.syncing = undefined));
  };

  private async syncAll(): Promise<void> {
    this.syncTimer = undefined;
    const current = Math.floor(this.now() / RATE_LIMIT_WINDOW_MS);
    const batch: Array<[WindowCount, number]> = [];
    for (const [key, entry] of this.counts) {
      if (entry.pending > 0) {
        batch.push([entry, entry.pending]);
        entry.inFlight += entry.pending;
        entry.pending = 0;
      } else if (entry.window < current) {
        this.counts.delete(key); // a past window with nothing left to add
      }
    }
    try {
      await Promise.all(
        batch.map(async ([entry, hits]) => {
          const shared = await this.repository.add(entry.subject, entry.window, hits, ttlFor(entry.window, this.now()));
          // Redis answers one connection's commands in order, but two syncs may overlap: keep the larger count.
          entry.shared = Math.max(entry.shared, shared);
          entry.inFlight -= hits;
        }),
      );
    } catch {
      // Redis cannot count: forget the local state so the next requests find out (and fail open) themselves.
      this.counts.clear();
    }
  }
}
