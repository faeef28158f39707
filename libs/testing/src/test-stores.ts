import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { parseRedisTarget } from '@mt/config';
import { Cluster, Redis } from 'ioredis';
import mongoose, { type Connection } from 'mongoose';

const suffix = () => randomBytes(4).toString('hex');

export function testMongoUrl(): string {
  const url = process.env['MONGO_URL'];
  if (!url) throw new Error('MONGO_URL is not set: the Jest global setup provides it');
  return url;
}

export function testRedisUrl(): string {
  const url = process.env['REDIS_URL'];
  if (!url) throw new Error('REDIS_URL is not set: the Jest global setup provides it');
  return url;
}

/** Whether the suites run against a Redis Cluster (`npm run test:cluster`). */
export const testRedisIsCluster = (): boolean => parseRedisTarget(testRedisUrl()).kind === 'cluster';

/**
 * A test that cuts Redis through a TCP relay (startTcpProxy): skipped against a Redis Cluster, whose clients
 * learn every node's address from the cluster and so would go around a relay in front of one node.
 */
export function itThroughRedisRelay(name: string, fn: jest.ProvidesCallback, timeout?: number): void {
  if (testRedisIsCluster()) it.skip(`${name} (skipped on a Redis Cluster: its clients go around a relay)`, fn, timeout);
  else it(name, fn, timeout);
}

/** A database name of its own for one test file (`<prefix>_t<random>`). */
export const testDbName = (prefix: string): string => `${prefix}_t${suffix()}`;

/** A Redis namespace of its own for one test file (keys, channels and streams all use it). */
export const testRedisPrefix = (name: string): string => `t:${name}:${suffix()}:`;

/** Drops a test database through a short-lived connection. */
export async function dropTestDatabase(dbName: string): Promise<void> {
  const connection: Connection = await mongoose.createConnection(testMongoUrl(), { dbName }).asPromise();
  try {
    await connection.dropDatabase();
  } finally {
    await connection.close();
  }
}

/** Deletes every key under a test prefix (on a Redis Cluster: on every master, one key at a time). */
export async function deleteRedisPrefix(prefix: string): Promise<void> {
  const target = parseRedisTarget(testRedisUrl());
  if (target.kind === 'single') {
    const redis = new Redis(target.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    try {
      await redis.connect();
      await deleteMatching(redis, prefix, (keys) => redis.del(...keys));
    } finally {
      redis.disconnect();
    }
    return;
  }
  const cluster = new Cluster(target.nodes, { lazyConnect: true, redisOptions: { maxRetriesPerRequest: 1 } });
  try {
    await cluster.connect();
    // A DEL of several keys must stay in one slot: each key is deleted on its own.
    await Promise.all(cluster.nodes('master').map((node) => deleteMatching(node, prefix, (keys) => Promise.all(keys.map((key) => cluster.del(key))))));
  } finally {
    cluster.disconnect();
  }
}

async function deleteMatching(node: Redis, prefix: string, remove: (keys: string[]) => Promise<unknown>): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await node.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    if (keys.length) await remove(keys);
    cursor = next;
  } while (cursor !== '0');
}

/** A port with nothing listening on it: a store URL that is guaranteed unreachable. */
export function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
