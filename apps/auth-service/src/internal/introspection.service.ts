import type { IntrospectionResult, JwtCutoff } from '@mt/contracts';
import type { Logger } from '@mt/logging';
import { hashPat, isWellFormedPat, scopesForRole } from '@mt/tokens';
import { OutageLog } from '../shared/warn-throttle';
import { LAST_USED_INTERVAL_SECONDS, type LastUsedThrottleRepository } from '../tokens/last-used-throttle.repository';
import type { TokenRecord, TokensRepository } from '../tokens/tokens.repository';
import type { UsersRepository } from '../users/users.repository';

const INACTIVE: IntrospectionResult = { active: false };

/** PAT introspection for the gateway (which caches the answer for PAT_CACHE_TTL_SECONDS). */
export class IntrospectionService {
  private readonly throttleOutage: OutageLog;

  constructor(
    private readonly tokens: TokensRepository,
    private readonly users: UsersRepository,
    private readonly lastUsed: LastUsedThrottleRepository,
    logger: Logger,
  ) {
    this.throttleOutage = new OutageLog(logger, 'redis unavailable: last_used_at throttled by the stored value only');
  }

  async introspect(token: string): Promise<IntrospectionResult> {
    // Shape and checksum first: a malformed or mistyped token never costs a database query.
    if (!isWellFormedPat(token)) return INACTIVE;
    const now = new Date();
    const record = await this.tokens.findActiveByHash(hashPat(token), now);
    if (!record) return INACTIVE;
    const user = await this.users.findById(record.userId);
    if (!user) return INACTIVE;
    await this.recordUse(record, now);
    return {
      active: true,
      user_id: user.id,
      username: user.username,
      // A role removed takes catalog:moderate from the user's PATs at once (the cached answers got tombstones).
      scopes: record.scopes.filter((scope) => scopesForRole(user.role).includes(scope)),
      token_id: record.id,
      expires_at: record.expiresAt.toISOString(),
    };
  }

  /** A user's JWT cut-off, for the gateway when Redis cannot tell it: a missing user rejects every JWT. */
  async jwtCutoff(userId: string): Promise<JwtCutoff> {
    const user = await this.users.findById(userId);
    return user ? { exists: true, cutoff_ms: user.jwtCutoffMs } : { exists: false, cutoff_ms: null };
  }

  /** last_used_at at most once a minute per token: Redis gate first, conditional write second. */
  private async recordUse(record: TokenRecord, now: Date): Promise<void> {
    let claimed = true;
    try {
      claimed = await this.lastUsed.claim(record.id);
      this.throttleOutage.succeeded();
    } catch (error) {
      this.throttleOutage.failed(error);
    }
    if (claimed) await this.tokens.touchLastUsed(record.id, now, LAST_USED_INTERVAL_SECONDS * 1000);
  }
}
