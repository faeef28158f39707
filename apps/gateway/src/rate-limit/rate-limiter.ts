import type { RateLimitRepository } from './rate-limit.repository';

export const RATE_LIMIT_WINDOW_MS = 60_000;

export interface RateLimitVerdict {
  limit: number;
  remaining: number;
  /** Seconds until the window resets (≥ 1). */
  resetSeconds: number;
  allowed: boolean;
}

/**
 * Fixed one-minute windows aligned to the clock: each subject (user or client IP) may make `limitPerMinute`
 * requests per window. Simple and O(1) in Redis; a client can burst up to twice the limit across a window
 * boundary, which is acceptable for a generous abuse limit.
 */
export function createRateLimiter(repository: RateLimitRepository, limitPerMinute: number, now: () => number = Date.now) {
  return {
    async hit(subject: string): Promise<RateLimitVerdict> {
      const at = now();
      const window = Math.floor(at / RATE_LIMIT_WINDOW_MS);
      const windowEndsAt = (window + 1) * RATE_LIMIT_WINDOW_MS;
      // The key outlives its window a little, so a slow clock on another gateway still finds it.
      const count = await repository.hit(subject, window, windowEndsAt - at + 5_000);
      return {
        limit: limitPerMinute,
        remaining: Math.max(0, limitPerMinute - count),
        resetSeconds: Math.max(1, Math.ceil((windowEndsAt - at) / 1000)),
        allowed: count <= limitPerMinute,
      };
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
