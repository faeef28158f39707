import { createHash } from 'node:crypto';

/** Provider answers kept for a day: the same search or work never spends quota twice in that time. */
export const PROVIDER_CACHE_TTL_SECONDS = 24 * 60 * 60;

/** Where validated provider answers are kept (Redis in the services). */
export interface AnswerCache {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlSeconds: number): Promise<void>;
}

/** The subset of an ioredis client the cache uses. */
export interface RedisLike {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, mode: 'EX', seconds: number): Promise<unknown>;
}

/**
 * The cache on Redis. A Redis that fails is a miss (the provider is asked), never an error: the cache
 * saves quota, it is not what answers.
 */
export function redisAnswerCache(redis: RedisLike, keyPrefix = ''): AnswerCache {
  return {
    async get(key) {
      return redis.get(`${keyPrefix}providers:${key}`).catch(() => null);
    },
    async set(key, value, ttlSeconds) {
      await redis.set(`${keyPrefix}providers:${key}`, value, 'EX', ttlSeconds).catch(() => undefined);
    },
  };
}

/** A process-local cache, for tools and tests that run without Redis. */
export function memoryAnswerCache(): AnswerCache {
  const entries = new Map<string, { value: string; until: number }>();
  return {
    async get(key) {
      const entry = entries.get(key);
      return entry && entry.until > Date.now() ? entry.value : null;
    },
    async set(key, value, ttlSeconds) {
      entries.set(key, { value, until: Date.now() + ttlSeconds * 1000 });
    },
  };
}

/** The cache key of a request: its provider and URL without credentials, hashed (bounded key size). */
export const answerKey = (provider: string, url: string): string => `${provider}:${createHash('sha256').update(url).digest('base64url')}`;
