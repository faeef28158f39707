import type { RedisKeys } from '@mt/contracts';
import type { Redis } from '@mt/stores';

/** last_used_at is written at most once per this interval per token (docs/api.md "Personal access tokens": it may lag a minute). */
export const LAST_USED_INTERVAL_SECONDS = 60;

/**
 * A cheap Redis gate in front of the MongoDB write: SET NX EX lets one introspection per minute
 * through. The write itself is conditional on the stored value too, so with Redis down it is
 * still at most once a minute.
 */
export class LastUsedThrottleRepository {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  /** True when this caller should write last_used_at now; throws when Redis cannot answer. */
  async claim(tokenId: string): Promise<boolean> {
    const result = await this.redis.set(this.keys.patLastUsed(tokenId), '1', 'EX', LAST_USED_INTERVAL_SECONDS, 'NX');
    return result === 'OK';
  }
}
