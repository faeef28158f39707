// Relative imports only: Jest's global setup loads this file outside the module mapper (see libs/testing).
import { Cluster, Redis } from 'ioredis';
// eslint-disable-next-line @nx/enforce-module-boundaries -- loaded by Jest's global setup, outside the module mapper
import { parseRedisTarget } from '../../shared/config/src/redis-target';
import mongoose from 'mongoose';

/** How long the launcher keeps trying a store named by MONGO_URL / REDIS_URL before giving up. */
export const STORE_WAIT_MS = 8000;
/** At most one "still not reachable" line this often while it tries. */
const REPORT_EVERY_MS = 5000;

/** The URL as it may be printed: credentials cut out. */
export const shownUrl = (url: string): string => url.replace(/\/\/[^/@\s]+@/, '//[redacted]@');

/**
 * The driver's reason in one line (a refused `localhost` is an AggregateError with an empty message). Duck
 * typed: errors of Node's own modules may come from another realm (Jest), where `instanceof Error` fails.
 */
export function driverReason(error: unknown): string {
  if (typeof error !== 'object' || error === null || !('message' in error)) return String(error);
  const { message, code, name, errors } = error as Partial<AggregateError & NodeJS.ErrnoException>;
  if (!message && Array.isArray(errors) && errors.length > 0) return driverReason(errors[0]);
  return shownUrl(String(message || code || name));
}

/** A store the launcher could not reach: the message says which, where, why and what to do. */
export class StoreUnreachableError extends Error {
  constructor(
    readonly store: string,
    readonly url: string,
    readonly reason: string,
    advice: string,
  ) {
    super(`${store} at ${shownUrl(url)} is not reachable: ${reason}\n  ${advice}`);
    this.name = 'StoreUnreachableError';
  }
}

export interface MongoFacts {
  /** The replica set's name, or undefined for a standalone server (no transactions). */
  replicaSet: string | undefined;
}

/** One connection attempt: resolves with what the server says about itself, rejects with the driver's error. */
export async function reachMongo(url: string, timeoutMs = 2000): Promise<MongoFacts> {
  const connection = mongoose.createConnection();
  try {
    await connection.openUri(url, {
      serverSelectionTimeoutMS: timeoutMs,
      connectTimeoutMS: timeoutMs,
      autoCreate: false,
      autoIndex: false,
    });
    const hello = await connection.getClient().db().admin().command({ hello: 1 });
    return { replicaSet: typeof hello['setName'] === 'string' ? hello['setName'] : undefined };
  } finally {
    await connection.close(true).catch(() => undefined);
  }
}

/** One connection attempt and a PING; rejects with the driver's error (refused, unknown host, NOAUTH...). */
export async function reachRedis(url: string, timeoutMs = 2000): Promise<void> {
  const options = { lazyConnect: true, connectTimeout: timeoutMs, commandTimeout: timeoutMs, maxRetriesPerRequest: 0, enableOfflineQueue: false };
  const target = parseRedisTarget(url);
  const redis =
    target.kind === 'single'
      ? new Redis(url, { ...options, retryStrategy: () => null })
      : new Cluster(target.nodes, { lazyConnect: true, enableOfflineQueue: false, clusterRetryStrategy: () => null, redisOptions: { ...options, username: target.username, password: target.password, ...(target.tls ? { tls: {} } : {}) } });
  // connect() rejects with "Connection is closed."; the error event says why.
  let cause: Error | undefined;
  redis.on('error', (error: Error) => (cause ??= error));
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    throw cause ?? error;
  } finally {
    redis.disconnect();
  }
}

export interface WaitOptions {
  /** Progress lines (the first failure, then at most one every 5 s). */
  note?: (text: string) => void;
  waitMs?: number;
  advice: string;
}

/**
 * Tries `attempt` (given its timeout) until it succeeds or `waitMs` has passed (a store that is still starting gets its
 * chance), then throws a StoreUnreachableError with the last reason.
 */
export async function waitForStore<T>(
  store: string,
  url: string,
  attempt: (timeoutMs: number) => Promise<T>,
  options: WaitOptions,
): Promise<T> {
  const waitMs = options.waitMs ?? STORE_WAIT_MS;
  const deadline = Date.now() + waitMs;
  let reportedAt: number | undefined;
  for (;;) {
    try {
      // Each attempt within what is left, so the whole wait stays within `waitMs` (plus a moment).
      return await attempt(Math.max(250, Math.min(2000, deadline - Date.now())));
    } catch (error) {
      const reason = driverReason(error);
      const now = Date.now();
      if (now >= deadline)
        throw new StoreUnreachableError(
          store,
          url,
          `${reason} (tried for ${Math.round(waitMs / 1000)} s)`,
          options.advice,
        );
      if (reportedAt === undefined) {
        options.note?.(
          `${store} at ${shownUrl(url)} is not reachable: ${reason}; trying again for ${Math.round(waitMs / 1000)} s`,
        );
        reportedAt = now;
      } else if (now - reportedAt >= REPORT_EVERY_MS) {
        options.note?.(`${store} at ${shownUrl(url)}: still not reachable (${reason})`);
        reportedAt = now;
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(500, Math.max(0, deadline - Date.now()))));
    }
  }
}
