import { findWorkspaceRoot, startStack, type LogLine, type Stack } from '@mt/stack';
import {
  deleteRedisPrefix,
  dropTestDatabase,
  testDbName,
  testMongoUrl,
  testRedisPrefix,
  testRedisUrl,
} from '@mt/testing';
import { Redis } from 'ioredis';
import mongoose from 'mongoose';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { HttpClient } from './http-client';

export const CATEGORIES = ['books', 'movies', 'tvshows'] as const;
export type Category = (typeof CATEGORIES)[number];

export interface RaceStack {
  readonly stack: Stack;
  readonly http: HttpClient;
  /** Every output line of every process, for the failure message of a test. */
  readonly logs: LogLine[];
  /** The user's entries on their `category` list, read straight from MongoDB. */
  countListEntries(category: Category, userId: string): Promise<number>;
  /**
   * Resolves once every catalog's consumer group has handled every account event published so far
   * (nothing pending, nothing undelivered), or rejects after `timeoutMs`.
   */
  waitForEventsConsumed(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

const LIST_ENTRIES = 'list_entries';

/**
 * One whole stack as processes (as `npm start` runs it) in databases and a Redis namespace of its own.
 * Rate limiting is off (a race sends bursts from one address) and the gateway waits up to a minute for an
 * upstream (a burst of argon2 hashes on a loaded machine can take longer than the default 10 s): neither
 * the limiter nor the proxy timeout is what is tested here.
 */
export async function startRaceStack(name: string, extraEnv: Record<string, string> = {}): Promise<RaceStack> {
  const redisKeyPrefix = testRedisPrefix(`race-${name}`);
  const dbNames = {
    auth: testDbName(`race_${name}_auth`),
    scrobble: testDbName(`race_${name}_scrobble`),
    ...Object.fromEntries(CATEGORIES.map((category) => [category, testDbName(`race_${name}_${category}`)])),
  } as Record<'auth' | 'scrobble' | Category, string>;
  const keyDir = path.join(
    findWorkspaceRoot(),
    'tmp',
    'race-keys',
    redisKeyPrefix.replace(/[^A-Za-z0-9]/g, '_'),
  );
  const logs: LogLine[] = [];
  const verbose = process.env['RACE_VERBOSE'] === '1';

  const stack = await startStack({
    ports: 'free',
    gatewayPort: 0,
    mongoUrl: testMongoUrl(),
    redisUrl: testRedisUrl(),
    redisKeyPrefix,
    mongoDbNames: { auth: dbNames.auth, catalog: (category) => dbNames[category as Category], scrobble: dbNames.scrobble },
    logLevel: 'warn',
    env: {
      JWT_KEY_DIR: keyDir,
      RATE_LIMIT_PER_MINUTE: '0',
      PROXY_TIMEOUT_MS: '60000',
      EVENTS_BLOCK_MS: '1000',
      ...extraEnv,
    },
    onLog: (line) => {
      logs.push(line);
      if (verbose) process.stdout.write(`[${line.process}] ${line.text}\n`);
    },
  });
  const cleanUp = async () => {
    await deleteRedisPrefix(redisKeyPrefix).catch(() => undefined);
    await Promise.all(Object.values(dbNames).map((db) => dropTestDatabase(db).catch(() => undefined)));
    rmSync(keyDir, { recursive: true, force: true });
  };

  let http: HttpClient;
  try {
    await stack.waitReady(90_000);
    if (!stack.gatewayUrl) throw new Error('the stack has no gateway');
    http = new HttpClient(stack.gatewayUrl);
    await waitUntil(
      async () => {
        const categories = await http.get<Array<{ id: string }>>('/api/v1/categories');
        return categories.status === 200 && categories.body.length === CATEGORIES.length;
      },
      30_000,
      'every category routed by the gateway',
    );
  } catch (error) {
    await stack.stop().catch(() => undefined);
    await cleanUp();
    throw error;
  }

  const mongo = await mongoose.createConnection(testMongoUrl()).asPromise();
  const redis = new Redis(testRedisUrl(), { lazyConnect: false, maxRetriesPerRequest: 1 });
  const stream = `${redisKeyPrefix}events:users`;

  return {
    stack,
    http,
    logs,
    countListEntries(category, userId) {
      return mongo
        .useDb(dbNames[category], { useCache: true })
        .collection(LIST_ENTRIES)
        .countDocuments({ user_id: userId });
    },
    async waitForEventsConsumed(timeoutMs = 20_000) {
      await waitUntil(
        async () => {
          if (!(await redis.exists(stream))) return true;
          const groups = ((await redis.xinfo('GROUPS', stream)) as unknown[][]).map(fieldsOf);
          const consumed = (group: Record<string, string>) =>
            Number(group['pending']) === 0 && Number(group['lag']) === 0;
          // Every catalog and the scrobble service consume account events, each as its own group.
          return groups.length === CATEGORIES.length + 1 && groups.every(consumed);
        },
        timeoutMs,
        'every catalog consumed the account events',
      );
    },
    async stop() {
      try {
        await stack.stop();
      } finally {
        await mongo.close().catch(() => undefined);
        redis.disconnect();
        await cleanUp();
      }
    },
  };
}

function fieldsOf(raw: unknown[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) fields[String(raw[i])] = String(raw[i + 1]);
  return fields;
}

export async function waitUntil(
  condition: () => Promise<boolean>,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let last: unknown;
    try {
      if (await condition()) return;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for: ${what}${last ? ` (${String(last)})` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
