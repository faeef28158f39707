import { redisKeys } from '@mt/contracts';
import type { Redis } from '@mt/stores';

/**
 * Counts one request in a window and returns the count so far. INCR and PEXPIRE run in one Lua script, so
 * a counter can never be left without its expiry (a crash between the two would otherwise pin it forever).
 */
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 or redis.call('PTTL', KEYS[1]) < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
end
return count`;

export interface RateLimitRepository {
  hit(subject: string, window: number, ttlMs: number): Promise<number>;
}

export function createRateLimitRepository(redis: Redis, prefix: string): RateLimitRepository {
  const keys = redisKeys(prefix);
  return {
    async hit(subject, window, ttlMs) {
      const count = await redis.eval(HIT_SCRIPT, 1, keys.rateLimit(subject, window), String(ttlMs));
      return Number(count);
    },
  };
}
