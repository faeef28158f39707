import { PAT_CACHE_TTL_SECONDS } from './internal-api';

/**
 * The claim a JWT carries with the user's JWT cut-off it was minted under (epoch ms, 0 before the first
 * password change), read in the same read as the password hash it was checked against. The gateway rejects
 * the JWT once the user's cut-off has moved past it (a password change) or the user is gone.
 */
export const JWT_CUTOFF_CLAIM = 'cutoff_ms';

/**
 * The claim with the user's role (docs/api.md "Authentication") read together with the cut-off. A role change moves the cut-off
 * like a password change, so a JWT always carries a role that was current for its cut-off; absent = `user`.
 */
export const JWT_ROLE_CLAIM = 'role';

/**
 * The value of a user's cut-off key in Redis (`redisKeys().jwtCutoff`) once the account is deleted: every
 * JWT of the user is rejected, whatever it carries. A number there is the current cut-off.
 */
export const USER_DELETED_CUTOFF = 'deleted';

/**
 * How long a revocation's "inactive" entry in the gateway's PAT cache lives: longer than an active entry
 * may live (PAT_CACHE_TTL_SECONDS) and than an introspection answer may wait to be cached
 * (PAT_ANSWER_MAX_AGE_MS), so a late "active" write finds it and is refused (the gateway writes only absent
 * entries).
 */
export const PAT_TOMBSTONE_TTL_SECONDS = 2 * PAT_CACHE_TTL_SECONDS;

/**
 * A role taken away (docs/api.md "Authentication") writes this over the gateway's PAT cache entries of the user, like a
 * revocation's tombstone (unconditionally, for PAT_TOMBSTONE_TTL_SECONDS) but meaning "ask again", not
 * "revoked": the token stays valid with the scopes introspection now gives it (without `catalog:moderate`).
 * The gateway treats it as a cache miss and, writing only absent entries, never replaces it with an answer
 * that may predate the change; while it lives every use of the token is introspected. `id` (the change's
 * outbox entry) tells markers apart.
 */
export const patReintrospectMarker = (id: string): string => JSON.stringify({ reintrospect: id });

/** Whether a PAT cache value is a re-introspect marker (see patReintrospectMarker). */
export function isPatReintrospectMarker(value: string): boolean {
  return value.startsWith('{"reintrospect":');
}

/** The gateway caches an introspection answer only if its cache lookup missed at most this long ago. */
export const PAT_ANSWER_MAX_AGE_MS = 10_000;
