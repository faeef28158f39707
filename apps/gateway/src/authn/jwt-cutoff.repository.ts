import { redisKeys, USER_DELETED_CUTOFF } from '@mt/contracts';
import type { Redis } from '@mt/stores';
import type { RedisRecovery } from './redis-recovery';

/** What Redis says about a user's JWTs: the current cut-off (epoch ms), none, or that the user is gone. */
export type UserCutoff = number | null | typeof USER_DELETED_CUTOFF;

export interface JwtCutoffRepository {
  /** The user's cut-off, null when none is set, or USER_DELETED_CUTOFF. Rejects when Redis cannot answer. */
  find(userId: string): Promise<UserCutoff>;
}

export function createJwtCutoffRepository(redis: Redis, prefix: string, recovery?: RedisRecovery): JwtCutoffRepository {
  const keys = redisKeys(prefix);
  return {
    async find(userId) {
      // A cut-off set during the outage may not be back in Redis yet: the caller asks the auth service.
      if (recovery?.recovering()) throw new Error('redis recovering from an outage: cut-offs may be stale');
      const value = await redis.get(keys.jwtCutoff(userId));
      if (value === null) return null;
      if (value === USER_DELETED_CUTOFF) return USER_DELETED_CUTOFF;
      const cutoff = Number(value);
      // A value we cannot read is "Redis cannot answer", not "no cut-off": the caller asks the auth service.
      if (!Number.isSafeInteger(cutoff)) throw new Error('unreadable JWT cut-off in Redis');
      return cutoff;
    },
  };
}
