import { redisKeys } from '@mt/contracts';
import type { Redis } from '@mt/stores';
import type { RedisRecovery } from './redis-recovery';

export interface JwtCutoffRepository {
  /** The user's cut-off (epoch ms), or null when none is set. Rejects when Redis cannot answer. */
  find(userId: string): Promise<number | null>;
}

export function createJwtCutoffRepository(redis: Redis, prefix: string, recovery?: RedisRecovery): JwtCutoffRepository {
  const keys = redisKeys(prefix);
  return {
    async find(userId) {
      // A cut-off set during the outage may not be back in Redis yet: the caller asks the auth service.
      if (recovery?.recovering()) throw new Error('redis recovering from an outage: cut-offs may be stale');
      const value = await redis.get(keys.jwtCutoff(userId));
      if (value === null) return null;
      const cutoff = Number(value);
      // A value we cannot read is "Redis cannot answer", not "no cut-off": the caller asks the auth service.
      if (!Number.isSafeInteger(cutoff)) throw new Error('unreadable JWT cut-off in Redis');
      return cutoff;
    },
  };
}
