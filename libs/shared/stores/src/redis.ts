import { Cluster, Redis as SingleRedis, type RedisOptions as DriverOptions } from 'ioredis';
import type { Logger } from 'pino';
import { settleWithin, sleep } from './backoff';
import { parseRedisTarget, type ClusterTarget } from '@mt/config';
import { connectionFailureReason, redactUrl, unreachableReporter } from './store-report';

/**
 * A service's Redis client: one server's, or a Redis Cluster's (REDIS_URL `redis+cluster://…`). Both speak the
 * same commands; on a cluster every script and transaction must keep its keys in one hash slot (redisKeys).
 */
export type Redis = SingleRedis | Cluster;

export interface RedisOptions {
  url: string;
  logger: Logger;
  /** Shown in CLIENT LIST; helps operators. */
  name: string;
  /** For connections that run blocking commands (XREADGROUP BLOCK) or subscribe: no command timeout. */
  blocking?: boolean;
}

/** What `waitForRedis` reports about a client made by `createRedis`. */
interface RedisReporting {
  address: string;
  logger: Logger;
  /** Connection attempts that failed so far, and the last one's reason. */
  failures: number;
  lastError?: string;
}
const reporting = new WeakMap<Redis, RedisReporting>();

/**
 * Commands fail fast while Redis is down (no offline queue, one retry, 1.5 s command timeout);
 * the client keeps reconnecting in the background.
 */
export function createRedis({ url, logger, name, blocking = false }: RedisOptions): Redis {
  const options: DriverOptions = {
    connectionName: name,
    connectTimeout: 2000,
    // ioredis arms a (ref'd) timer of this length on every disconnect() and clears it only on the socket's
    // next 'close' - which never comes when the socket had already failed (Redis down, ioredis #1247).
    // The 2 s default kept processes and Jest alive after tests of an unreachable Redis.
    disconnectTimeout: 200,
    commandTimeout: blocking ? undefined : 1500,
    maxRetriesPerRequest: blocking ? null : 1,
    enableOfflineQueue: blocking,
    retryStrategy,
    lazyConnect: false,
  };
  const target = parseRedisTarget(url);
  const redis = target.kind === 'cluster' ? createCluster(target, options) : new SingleRedis(url, options);
  const state: RedisReporting = { address: redactUrl(url), logger, failures: 0 };
  reporting.set(redis, state);
  let wasReady = false;
  redis.on('ready', () => {
    // A reconnection is news to an operator; the first connection is a normal start (debug).
    if (wasReady) logger.info({ connection: name }, 'redis reconnected');
    else logger.debug({ connection: name }, 'redis connected');
    wasReady = true;
  });
  redis.on('error', (error: Error) => {
    state.failures++;
    state.lastError = connectionFailureReason(error);
    logger.debug({ connection: name, reason: state.lastError }, 'redis error');
  });
  redis.on('end', () => logger.debug({ connection: name }, 'redis connection ended'));
  return redis;
}

function retryStrategy(times: number): number {
  return Math.min(100 * 2 ** Math.min(times, 5), 2000);
}

/**
 * The same per-node settings, plus what a failover needs: a command that meets MOVED, TRYAGAIN or CLUSTERDOWN
 * while a replica takes over is retried on the new master (the documented retry), not failed.
 */
function createCluster(target: ClusterTarget, options: DriverOptions): Cluster {
  const { enableOfflineQueue, maxRetriesPerRequest, ...perNode } = options;
  return new Cluster(target.nodes, {
    redisOptions: {
      ...perNode,
      maxRetriesPerRequest,
      ...(target.username ? { username: target.username } : {}),
      ...(target.password ? { password: target.password } : {}),
      ...(target.tls ? { tls: {} } : {}),
    },
    enableOfflineQueue,
    clusterRetryStrategy: retryStrategy,
    retryDelayOnFailover: 200,
    retryDelayOnClusterDown: 200,
    retryDelayOnTryAgain: 200,
    maxRedirections: 16,
    // Reads from masters only: a replica may lag behind a write the same request just made.
    scaleReads: 'master',
    slotsRefreshTimeout: 2000,
  });
}

/**
 * Resolves once the client is ready; waits (forever, or until `signal`) while Redis is unreachable, naming
 * its address and the driver's reason at once, then at most every 5 s.
 */
export async function waitForRedis(redis: Redis, signal?: AbortSignal): Promise<void> {
  const state = reporting.get(redis);
  const report = unreachableReporter((progress) =>
    state?.logger.warn({ address: state.address, reason: state.lastError ?? 'not connected yet', ...progress }, 'redis not reachable yet; retrying'),
  );
  // The first report waits for the client's first attempt, so it can say why the attempt failed.
  for (let polls = 0; redis.status !== 'ready' && !signal?.aborted; polls++) {
    if (state && (state.failures > 0 || polls >= 20)) report(state.failures);
    await sleep(100, signal);
  }
}

export async function pingRedis(redis: Redis): Promise<void> {
  if (redis.status !== 'ready') throw new Error('redis not connected');
  await redis.ping();
}

/**
 * QUIT politely (at most 1 s), then drop the socket and stop reconnecting. The wait timer is cleared
 * as soon as QUIT answers, so nothing keeps the process (or Jest) alive afterwards.
 */
export async function closeRedis(redis: Redis): Promise<void> {
  try {
    if (redis.status === 'ready') await settleWithin(redis.quit().catch(() => undefined), 1000);
  } finally {
    redis.disconnect();
  }
}
