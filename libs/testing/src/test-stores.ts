import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
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

/** Deletes every key under a test prefix. */
export async function deleteRedisPrefix(prefix: string): Promise<void> {
  const redis = new Redis(testRedisUrl(), { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
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
