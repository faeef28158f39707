/**
 * Every Redis key, channel and stream the services share, in one place. `prefix` is REDIS_KEY_PREFIX,
 * so several stacks (or test files) can share one Redis without seeing each other.
 */
export function redisKeys(prefix: string) {
  return {
    /** JWT cut-off of a user: epoch milliseconds; JWTs whose `iat_ms` is earlier are rejected. */
    jwtCutoff: (userId: string) => `${prefix}auth:cutoff:${userId}`,
    /** Gateway's PAT cache, keyed by the token's SHA-256 (JSON IntrospectionResult). */
    patCache: (tokenHash: string) => `${prefix}auth:pat:${tokenHash}`,
    /** Failed logins of one account (`user:<id>`) or one unknown login name (`name:<lower-cased>`). */
    loginFailures: (subject: string) => `${prefix}auth:login-failures:${subject}`,
    /** last_used_at write throttle of a PAT. */
    patLastUsed: (tokenId: string) => `${prefix}auth:pat-used:${tokenId}`,
    rateLimit: (subject: string, window: number) => `${prefix}ratelimit:${subject}:${window}`,
    /** Gateway: one Idempotency-Key of one caller (`user:<id>` or `ip:<address>`), keyed by the key's SHA-256. */
    idempotency: (subject: string, keyHash: string) => `${prefix}idempotency:${subject}:${keyHash}`,
    /** Gateway: a caller's stored answers, oldest first (sorted set of `<keyHash> <bytes>` by time stored). */
    idempotencyAnswers: (subject: string) => `${prefix}idempotency-answers:${subject}`,
    /** Gateway: the bytes of a caller's stored answers (the sum over its `idempotencyAnswers`). */
    idempotencyBytes: (subject: string) => `${prefix}idempotency-bytes:${subject}`,
    /** Account events (user.deleted) for the catalog services' consumer groups. */
    userEvents: () => `${prefix}events:users`,
    registryInstances: () => `${prefix}registry:instances`,
    registryInstance: (instanceId: string) => `${prefix}registry:instance:${instanceId}`,
    /** Hash: service id → its latest registration (manifest, OpenAPI, category) and when it was made. */
    registryServices: () => `${prefix}registry:services`,
    /** Present (with a short TTL) while some registry is sweeping: a registry starting without it grants amnesty. */
    registryWatching: () => `${prefix}registry:watching`,
    /** Pub/sub channel: a message whenever the set of live instances changes. */
    registryChanges: () => `${prefix}registry:changes`,
  };
}

export type RedisKeys = ReturnType<typeof redisKeys>;
