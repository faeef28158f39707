import { redisKeys } from '@mt/contracts';
import type { Logger } from '@mt/logging';
import type { Redis } from '@mt/stores';
import type { HookRateLimit } from '../domain/store-ports';

const WINDOW_MS = 60_000;

/**
 * Events per hook per minute, counted in Redis (fixed windows) so every instance shares the count. Redis
 * unreachable admits the event: a media server's events are worth more than the limit, which only guards
 * against a runaway sender.
 */
export class RedisHookRateLimit implements HookRateLimit {
  constructor(private readonly deps: { redis: Redis; keyPrefix: string; perMinute: number; logger: Logger }) {}

  async take(hookId: string): Promise<number | null> {
    const now = Date.now();
    const window = Math.floor(now / WINDOW_MS);
    const key = redisKeys(this.deps.keyPrefix).rateLimit(`scrobble-hook:${hookId}`, window);
    try {
      const results = await this.deps.redis.multi().incr(key).pexpire(key, WINDOW_MS * 2).exec();
      const count = Number(results?.[0]?.[1] ?? 0);
      return count > this.deps.perMinute ? Math.ceil(((window + 1) * WINDOW_MS - now) / 1000) : null;
    } catch (error) {
      this.deps.logger.warn({ reason: (error as Error).message }, 'hook rate limit not checked: redis unavailable');
      return null;
    }
  }
}
