import type { RedisKeys } from '@mt/contracts';
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

export class RateLimitRepository {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  /** Adds `hits` (≥ 1) to the subject's counter of `window`; resolves with the counter's new value. */
  async add(subject: string, window: number, hits: number, ttlMs: number): Promise<number> {
    const count = await this.redis.eval(ADD_SCRIPT, 1, this.keys.rateLimit(subject, window), String(ttlMs), String(hits));
    return Number(count);
  }
}
