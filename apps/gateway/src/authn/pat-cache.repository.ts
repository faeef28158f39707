import { IntrospectionResultSchema, isPatReintrospectMarker, type IntrospectionResult, type RedisKeys } from '@mt/contracts';
import type { Redis } from '@mt/stores';
import type { RedisRecovery } from './redis-recovery';

/** Keyed by the token's SHA-256: the token itself is never written anywhere. */
export class PatCacheRepository {
  constructor(
    private readonly redis: Redis,
    private readonly options: { keys: RedisKeys; recovery?: RedisRecovery },
  ) {}

  /** The cached introspection result, or null on a miss. Rejects when Redis cannot answer. */
  async find(tokenHash: string): Promise<IntrospectionResult | null> {
    // An entry from before the outage may describe a token revoked meanwhile: a miss, so it is introspected.
    if (this.options.recovery?.recovering()) return null;
    const value = await this.redis.get(this.options.keys.patCache(tokenHash));
    if (value === null) return null;
    // A role taken away: the token's scopes changed, ask again (save() cannot replace the marker: NX).
    if (isPatReintrospectMarker(value)) return null;
    try {
      const parsed = IntrospectionResultSchema.safeParse(JSON.parse(value));
      return parsed.success ? parsed.data : null; // an unreadable entry is a miss: introspect again
    } catch {
      return null;
    }
  }

  /**
   * Caches an introspection result unless an entry exists: a revocation's "inactive" tombstone written
   * meanwhile must win over an answer that was given before it.
   */
  async save(tokenHash: string, result: IntrospectionResult, ttlSeconds: number): Promise<void> {
    await this.redis.set(this.options.keys.patCache(tokenHash), JSON.stringify(result), 'EX', ttlSeconds, 'NX');
  }
}
