import type { RedisKeys } from '@mt/contracts';
import type { Redis } from '@mt/stores';

/** docs/api.md "Authentication": 10 failed logins for one account (or unknown name) within 15 minutes lock it for the rest of the window. */
export const MAX_FAILED_LOGINS = 10;
export const LOCKOUT_WINDOW_MS = 15 * 60_000;

/**
 * Failed-login counters in Redis, one per subject (see lockoutSubject: the account, or an unknown name).
 * Fixed window: it starts at the first failure.
 */
export class LoginFailuresRepository {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  /** Milliseconds left in the lockout, or 0 when the login may be tried. Throws when Redis cannot answer. */
  async lockedForMs(subject: string): Promise<number> {
    const key = this.keys.loginFailures(subject);
    const results = await this.redis.multi().get(key).pttl(key).exec();
    const count = Number(results?.[0]?.[1] ?? 0);
    const ttlMs = Number(results?.[1]?.[1] ?? -2);
    if (count < MAX_FAILED_LOGINS) return 0;
    return ttlMs > 0 ? ttlMs : LOCKOUT_WINDOW_MS;
  }

  async recordFailure(subject: string): Promise<void> {
    const key = this.keys.loginFailures(subject);
    // SET NX starts the window on the first failure; INCR counts within it.
    await this.redis.multi().set(key, '0', 'PX', LOCKOUT_WINDOW_MS, 'NX').incr(key).exec();
  }

  async clear(subject: string): Promise<void> {
    await this.redis.del(this.keys.loginFailures(subject));
  }
}
