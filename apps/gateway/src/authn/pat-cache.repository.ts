import { IntrospectionResultSchema, isPatReintrospectMarker, redisKeys, type IntrospectionResult } from '@mt/contracts';
import type { Redis } from '@mt/stores';
import type { RedisRecovery } from './redis-recovery';

export interface PatCacheRepository {
  /** The cached introspection result, or null on a miss. Rejects when Redis cannot answer. */
  find(tokenHash: string): Promise<IntrospectionResult | null>;
  /**
   * Caches an introspection result unless an entry exists: a revocation's "inactive" tombstone written
   * meanwhile must win over an answer that was given before it.
   */
  save(tokenHash: string, result: IntrospectionResult, ttlSeconds: number): Promise<void>;
}

/** Keyed by the token's SHA-256: the token itself is never written anywhere. */
export function createPatCacheRepository(redis: Redis, prefix: string, recovery?: RedisRecovery): PatCacheRepository {
  const keys = redisKeys(prefix);
  return {
    async find(tokenHash) {
      // An entry from before the outage may describe a token revoked meanwhile: a miss, so it is introspected.
      if (recovery?.recovering()) return null;
      const value = await redis.get(keys.patCache(tokenHash));
      if (value === null) return null;
      // A role taken away: the token's scopes changed, ask again (save() cannot replace the marker: NX).
      if (isPatReintrospectMarker(value)) return null;
      try {
        const parsed = IntrospectionResultSchema.safeParse(JSON.parse(value));
        return parsed.success ? parsed.data : null; // an unreadable entry is a miss: introspect again
      } catch {
        return null;
      }
    },
    async save(tokenHash, result, ttlSeconds) {
      await redis.set(keys.patCache(tokenHash), JSON.stringify(result), 'EX', ttlSeconds, 'NX');
    },
  };
}
