import { DEFAULT_CATEGORIES } from '@mt/stack';
import { Redis } from 'ioredis';
import mongoose from 'mongoose';
import { benchDatabases, benchRedisPrefix } from './bench-stack';

/** The databases a benchmark stack named `name` uses (and only those: never anyone else's). */
export function benchDatabaseNames(name: string): string[] {
  const databases = benchDatabases(name);
  return [databases.auth, databases.scrobble, ...DEFAULT_CATEGORIES.map((category) => databases.catalog(category))];
}

/** Drops the stack's databases and deletes its Redis keys (SCAN of its own prefix; never FLUSHDB). */
export async function dropBenchData(
  stores: { mongoUrl: string; redisUrl: string },
  name: string,
): Promise<void> {
  const connection = await mongoose
    .createConnection(stores.mongoUrl, { serverSelectionTimeoutMS: 5000 })
    .asPromise();
  try {
    for (const dbName of benchDatabaseNames(name))
      await connection.useDb(dbName, { useCache: false }).dropDatabase();
  } finally {
    await connection.close();
  }
  const redis = new Redis(stores.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    const prefix = benchRedisPrefix(name);
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
