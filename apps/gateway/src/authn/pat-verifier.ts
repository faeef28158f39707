import { PAT_ANSWER_MAX_AGE_MS, PAT_CACHE_TTL_SECONDS, PAT_INVALID_CACHE_TTL_SECONDS, type IntrospectionResult } from '@mt/contracts';
import type { Logger } from '@mt/logging';
import type { Metrics } from '@mt/metrics';
import { hashPat, isWellFormedPat } from '@mt/tokens';
import { AuthenticationUnavailableError, invalidCredential, type AuthOutcome } from './auth-outcome';
import type { AuthServiceClient } from './auth-service.client';
import type { PatCacheRepository } from './pat-cache.repository';

export interface PatVerifierOptions {
  cache: Pick<PatCacheRepository, 'find' | 'save'>;
  authService: Pick<AuthServiceClient, 'introspect'>;
  metrics: Metrics;
  logger: Logger;
  now?: () => number;
}

/**
 * How long an introspection result may be cached: an active token at most a minute (introspection writes
 * `last_used_at`) and never past its expiry; an invalid one briefly. 0 = do not cache.
 */
export function patCacheTtlSeconds(result: IntrospectionResult, nowMs: number): number {
  if (!result.active) return PAT_INVALID_CACHE_TTL_SECONDS;
  const secondsLeft = Math.floor((Date.parse(result.expires_at) - nowMs) / 1000);
  return Number.isFinite(secondsLeft) ? Math.max(0, Math.min(PAT_CACHE_TTL_SECONDS, secondsLeft)) : 0;
}

/**
 * PATs: shape and checksum first (a malformed token never reaches Redis or the auth service), then the
 * Redis cache by SHA-256, then introspection at the auth service. While Redis is down every PAT is
 * introspected (nothing is cached); when the auth service cannot answer either, the outcome is undecidable.
 * Revocation overwrites the cache entry with an "inactive" tombstone (auth service) that outlives any active
 * entry; answers are cached only where no entry exists (SET NX) and only if the lookup that missed is at most
 * PAT_ANSWER_MAX_AGE_MS old, so an introspection that started before the revocation cannot bring it back.
 */
export class PatVerifier {
  private readonly cache: Pick<PatCacheRepository, 'find' | 'save'>;
  private readonly authService: Pick<AuthServiceClient, 'introspect'>;
  private readonly metrics: Metrics;
  private readonly logger: Logger;
  private readonly now: () => number;

  constructor({ cache, authService, metrics, logger, now = Date.now }: PatVerifierOptions) {
    this.cache = cache;
    this.authService = authService;
    this.metrics = metrics;
    this.logger = logger;
    this.now = now;
  }

  async verify(token: string): Promise<AuthOutcome> {
    if (!isWellFormedPat(token)) return invalidCredential('malformed PAT');
    const tokenHash = hashPat(token);
    const lookedUpAt = this.now();

    let cacheUsable = true;
    try {
      const cached = await this.cache.find(tokenHash);
      this.metrics.patCacheLookups.inc({ result: cached ? 'hit' : 'miss' });
      if (cached) return this.toOutcome(cached);
    } catch (error) {
      cacheUsable = false;
      this.metrics.patCacheLookups.inc({ result: 'unavailable' });
      this.logger.warn({ reason: (error as Error).message }, 'PAT cache unavailable; introspecting without caching');
    }

    let result: IntrospectionResult;
    try {
      result = await this.authService.introspect(token);
    } catch (error) {
      if (error instanceof AuthenticationUnavailableError) return { kind: 'undecidable', reason: error.message };
      throw error;
    }
    const answeredAt = this.now();
    const ttl = patCacheTtlSeconds(result, answeredAt);
    // An answer that took this long may predate a revocation whose tombstone is about to expire: not cached.
    const fresh = answeredAt - lookedUpAt <= PAT_ANSWER_MAX_AGE_MS;
    if (cacheUsable && fresh && ttl > 0) {
      await this.cache
        .save(tokenHash, result, ttl)
        .catch((error: Error) => this.logger.warn({ reason: error.message }, 'PAT cache write failed'));
    }
    return this.toOutcome(result);
  }

  private toOutcome(result: IntrospectionResult): AuthOutcome {
    if (!result.active) return invalidCredential('PAT inactive (unknown, revoked or expired)');
    if (!(Date.parse(result.expires_at) > this.now())) return invalidCredential('PAT expired');
    return {
      kind: 'authenticated',
      identity: { userId: result.user_id, authType: 'pat', scopes: [...result.scopes], tokenId: result.token_id },
    };
  }
}
