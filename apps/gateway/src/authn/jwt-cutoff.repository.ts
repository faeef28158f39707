import { USER_DELETED_CUTOFF, type RedisKeys } from '@mt/contracts';
import type { Redis } from '@mt/stores';
import type { RedisRecovery } from './redis-recovery';

/** What Redis says about a user's JWTs: the current cut-off (epoch ms), none, or that the user is gone. */
export type UserCutoff = number | null | typeof USER_DELETED_CUTOFF;

export class JwtCutoffRepository {
  constructor(
    private readonly redis: Redis,
    private readonly options: { keys: RedisKeys; recovery?: RedisRecovery },
  ) {}

  /** The user's cut-off, null when none is set, or USER_DELETED_CUTOFF. Rejects when Redis cannot answer. */
  async find(userId: string): Promise<UserCutoff> {
    // A cut-off set during the outage may not be back in Redis yet: the caller asks the auth service.
    if (this.options.recovery?.recovering()) throw new Error('redis recovering from an outage: cut-offs may be stale');
    const value = await this.redis.get(this.options.keys.jwtCutoff(userId));
    if (value === null) return null;
    if (value === USER_DELETED_CUTOFF) return USER_DELETED_CUTOFF;
    const cutoff = Number(value);
    // A value we cannot read is "Redis cannot answer", not "no cut-off": the caller asks the auth service.
    if (!Number.isSafeInteger(cutoff)) throw new Error('unreadable JWT cut-off in Redis');
    return cutoff;
  }
}
