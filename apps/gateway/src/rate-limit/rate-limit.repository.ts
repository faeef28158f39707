import { redisKeys } from '@mt/contracts';
import type { Redis } from '@mt/stores';

/**
 * Adds hits to a window's counter and returns the count so far. INCRBY and PEXPIRE run in one Lua script, so
 * a counter can never be left without its expiry (a crash between the two would otherwise pin it forever).
 */
const ADD_SCRIPT = `
local count = redis.call('INCRBY', KEYS[1], ARGV[2])
if count == tonumber(ARGV[2]) or redis.call('PTTL', KEYS[1]) < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
end
return count`;

export interface RateLimitRepository {
  /** Adds `hits` (≥ 1) to the subject's counter of `window`; resolves with the counter's new value. */
  add(subject: string, window: number, hits: number, ttlMs: number): Promise<number>;
}

export function createRateLimitRepository(redis: Redis, prefix: string): RateLimitRepository {
  const keys = redisKeys(prefix);
  return {
    async add(subject, window, hits, ttlMs) {
      const count = await redis.eval(
        ADD_SCRIPT,
        1,
        keys.rateLimit(subject, window),
        String(ttlMs),
        String(hits),
      );
      return Number(count);
    },
  };
}
