import { redisKeys } from '@mt/contracts';
import type { Redis } from '@mt/stores';

export interface JwtCutoffRepository {
  /** The user's cut-off (epoch ms), or null when none is set. Rejects when Redis cannot answer. */
  find(userId: string): Promise<number | null>;
}

export function createJwtCutoffRepository(redis: Redis, prefix: string): JwtCutoffRepository {
  const keys = redisKeys(prefix);
  return {
    async find(userId) {
      const value = await redis.get(keys.jwtCutoff(userId));
      if (value === null) return null;
      const cutoff = Number(value);
      // A value we cannot read is "Redis cannot answer", not "no cut-off": the caller asks the auth service.
      if (!Number.isSafeInteger(cutoff)) throw new Error('unreadable JWT cut-off in Redis');
      return cutoff;
    },
  };
}
