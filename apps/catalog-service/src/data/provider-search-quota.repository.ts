import { redisKeys } from '@mt/contracts';
import { errors } from '@mt/errors';
import type { Redis } from '@mt/stores';
import type { ProviderSearchQuota } from '../domain/ports/provider-search-quota.port';

import { PROVIDER_SEARCH_LIMITS, type SearchQuotaLimits } from '../domain/provider-search-limits';

/**
 * A fixed window per user on Redis, shared by every instance of the category: the first search of a window
 * creates its counter with the window's expiry (SET NX EX, any Redis version), then each search counts.
 */
export class ProviderSearchQuotaRepository implements ProviderSearchQuota {
  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
    private readonly category: string,
    private readonly limits: SearchQuotaLimits = PROVIDER_SEARCH_LIMITS,
  ) {}

  async take(userId: string): Promise<{ allowed: true } | { allowed: false; retryAfterSeconds: number }> {
    const key = redisKeys(this.keyPrefix).providerSearchQuota(this.category, userId);
    let result: Array<[Error | null, unknown]> | null;
    try {
      result = await this.redis.multi().set(key, '0', 'EX', this.limits.windowSeconds, 'NX').incr(key).ttl(key).exec();
    } catch {
      throw errors.serviceUnavailable('the search allowance cannot be checked right now');
    }
    const count = Number(result?.[1]?.[1] ?? 0);
    const ttl = Number(result?.[2]?.[1] ?? this.limits.windowSeconds);
    if (count <= this.limits.searches) return { allowed: true };
    return { allowed: false, retryAfterSeconds: ttl > 0 ? ttl : this.limits.windowSeconds };
  }
}
