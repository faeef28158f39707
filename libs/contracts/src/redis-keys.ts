/**
 * A Redis Cluster hash tag: only the part between the first `{` and `}` of a key picks its hash slot, so keys
 * sharing a tag share a slot (and a node) and may meet in one script or transaction. REDIS_KEY_PREFIX cannot
 * hold braces, so the tag after it is always the first.
 */
const tag = (value: string): string => `{${value}}`;

/**
 * Every Redis key, channel and stream the services share, in one place. `prefix` is REDIS_KEY_PREFIX,
 * so several stacks (or test files) can share one Redis without seeing each other.
 *
 * Hash tags (docs/operations.md "Redis Cluster"): keys one script or MULTI touches together carry the same
 * tag, one per user (`{user:<id>}`), per caller or per subsystem (`{registry}`, `{bull:<category>}`); a key
 * used alone has none, so the keys spread over the whole cluster. The `*Set` entries list what each script
 * touches together; a unit test checks each maps to one slot.
 */
export function redisKeys(prefix: string) {
  const keys = {
    /** JWT cut-off of a user: epoch milliseconds; JWTs whose `iat_ms` is earlier are rejected. */
    jwtCutoff: (userId: string) => `${prefix}auth:cutoff:${tag(`user:${userId}`)}`,
    /** Gateway's PAT cache, keyed by the token's SHA-256 (JSON IntrospectionResult). */
    patCache: (tokenHash: string) => `${prefix}auth:pat:${tokenHash}`,
    /** Failed logins of one account (`user:<id>`) or one unknown login name (`name:<lower-cased>`). */
    loginFailures: (subject: string) => `${prefix}auth:login-failures:${subject}`,
    /** last_used_at write throttle of a PAT. */
    patLastUsed: (tokenId: string) => `${prefix}auth:pat-used:${tokenId}`,
    rateLimit: (subject: string, window: number) => `${prefix}ratelimit:${subject}:${window}`,
    /** Gateway: one Idempotency-Key of one caller (`user:<id>` or `ip:<address>`), keyed by the key's SHA-256. */
    idempotency: (subject: string, keyHash: string) => `${prefix}idempotency:${tag(subject)}:${keyHash}`,
    /** Gateway: a caller's stored answers, oldest first (sorted set of `<keyHash> <bytes>` by time stored). */
    idempotencyAnswers: (subject: string) => `${prefix}idempotency-answers:${tag(subject)}`,
    /** Gateway: the bytes of a caller's stored answers (the sum over its `idempotencyAnswers`). */
    idempotencyBytes: (subject: string) => `${prefix}idempotency-bytes:${tag(subject)}`,
    /** Account events (user.deleted) for the catalog services' consumer groups. */
    userEvents: () => `${prefix}events:users`,
    registryInstances: () => `${prefix}${tag('registry')}:instances`,
    registryInstance: (instanceId: string) => `${prefix}${tag('registry')}:instance:${instanceId}`,
    /** Hash: service id → its latest registration (manifest, OpenAPI, category) and when it was made. */
    registryServices: () => `${prefix}${tag('registry')}:services`,
    /** Present (with a short TTL) while some registry is sweeping: a registry starting without it grants amnesty. */
    registryWatching: () => `${prefix}${tag('registry')}:watching`,
    /**
     * Pub/sub channel: a message whenever the set of live instances changes. Classic (not sharded) pub/sub:
     * a cluster delivers it to subscribers on every node, and a PUBLISH inside a script needs no slot.
     */
    registryChanges: () => `${prefix}registry:changes`,
    /** A user's window of metadata-provider searches in one category (a counter, alone in its MULTI). */
    providerSearchQuota: (category: string, userId: string) => `${prefix}providers:search-quota:${category}:${userId}`,
    /** Present while a show of a category was refreshed from its provider today (one instance refreshes each). */
    providerRefreshed: (category: string, itemId: string) => `${prefix}providers:refreshed:${category}:${itemId}`,
    /** BullMQ's prefix of a category's import queue: all of one queue's keys in one slot, as BullMQ's scripts need. */
    importQueuePrefix: (category: string) => `${prefix}${tag(`bull:${category}`)}`,
    /** BullMQ's prefix of the scrobble service's event queue, in one slot for the same reason. */
    scrobbleQueuePrefix: () => `${prefix}${tag('bull:scrobble')}`,
  };
  return {
    ...keys,
    /**
     * What storing one caller's answer touches (the gateway's script): the key's record, the caller's answers
     * and their bytes, and the prefix of the caller's other records, which it evicts.
     */
    idempotencySet: (subject: string, keyHash: string) => ({
      record: keys.idempotency(subject, keyHash),
      answers: keys.idempotencyAnswers(subject),
      bytes: keys.idempotencyBytes(subject),
      recordPrefix: keys.idempotency(subject, ''),
    }),
    /** What the registry's scripts touch: its records, and the prefix of the instance records the sweep deletes. */
    registrySet: () => ({
      instances: keys.registryInstances(),
      services: keys.registryServices(),
      watching: keys.registryWatching(),
      instancePrefix: keys.registryInstance(''),
    }),
  };
}

export type RedisKeys = ReturnType<typeof redisKeys>;
