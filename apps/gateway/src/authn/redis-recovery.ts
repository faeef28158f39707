import type { Redis } from '@mt/stores';

/** Long enough for the auth service to reconnect (its retry backs off to 2 s) and re-publish its outbox. */
export const REDIS_RECOVERY_GRACE_MS = 10_000;

export interface RedisRecoveryOptions {
  graceMs?: number;
  now?: () => number;
}

/**
 * What Redis says about credentials may be stale right after an outage: a revocation or password change
 * made meanwhile reaches Redis only when the auth service re-publishes it, on its own reconnect schedule,
 * while a PAT cache entry written before the outage still says "active". For a grace period after every
 * reconnect the gateway therefore asks the auth service (cut-offs, introspection) instead of the cache.
 */
export class RedisRecovery {
  private readonly now: () => number;
  private lost = false;
  private recoveringUntil = 0;

  constructor(redis: Redis, { graceMs = REDIS_RECOVERY_GRACE_MS, now = Date.now }: RedisRecoveryOptions = {}) {
    this.now = now;
    redis.on('close', () => (this.lost = true));
    redis.on('ready', () => {
      if (this.lost) this.recoveringUntil = this.now() + graceMs;
      this.lost = false;
    });
  }

  /** True for a while after the gateway's Redis connection came back from an outage (not during it). */
  recovering(): boolean {
    return this.now() < this.recoveringUntil;
  }
}
