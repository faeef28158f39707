import { redisKeys } from '@mt/contracts';
import type { Redis } from '@mt/stores';
import type { RefreshClaims } from '../domain/ports/refresh-claims.port';

/** One claim per show and day on Redis (SET NX EX): of all the category's instances, one refreshes each show. */
export class RefreshClaimsRepository implements RefreshClaims {
  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
    private readonly category: string,
  ) {}

  async claim(itemId: string, forSeconds: number): Promise<boolean> {
    const done = await this.redis.set(redisKeys(this.keyPrefix).providerRefreshed(this.category, itemId), '1', 'EX', forSeconds, 'NX').catch(() => null);
    return done === 'OK';
  }
}
