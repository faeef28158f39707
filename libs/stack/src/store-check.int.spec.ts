import { freePort } from './free-port';

// Not @mt/testing: the test helpers' global setup uses this lib's store provisioning (a dependency cycle).
const testMongoUrl = (): string => process.env['MONGO_URL'] ?? '';
const testRedisUrl = (): string => process.env['REDIS_URL'] ?? '';
/** A port nothing listens on. */
const closedPort = (): Promise<number> => freePort();
import { createServer, type Server } from 'node:net';
import { initiateReplicaSet, provideMongo, provideRedis } from './embedded-stores';
import { driverReason, reachMongo, reachRedis, StoreUnreachableError, waitForStore } from './store-check';

/** The launcher's checks of MONGO_URL / REDIS_URL, against the real test stores and closed ports. */
describe('store checks', () => {
  it('reach the real MongoDB and Redis, and tell whether MongoDB is a replica set', async () => {
    await expect(reachRedis(testRedisUrl())).resolves.toBeUndefined();
    const facts = await reachMongo(testMongoUrl());
    // The test MongoDB (the sandbox, or an embedded mongod) is a single-node replica set.
    expect(facts.replicaSet).toEqual(expect.any(String));
  });

  it("fail with the driver's reason for a closed port", async () => {
    const redisPort = await closedPort();
    const mongoPort = await closedPort();
    expect(driverReason(await reachRedis(`redis://127.0.0.1:${redisPort}`).catch((e: unknown) => e))).toBe(
      `connect ECONNREFUSED 127.0.0.1:${redisPort}`,
    );
    expect(
      driverReason(await reachMongo(`mongodb://127.0.0.1:${mongoPort}`, 500).catch((e: unknown) => e)),
    ).toContain(`ECONNREFUSED 127.0.0.1:${mongoPort}`);
  });

  it('fail within their timeout against a server that accepts and never answers', async () => {
    const silent: Server = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    try {
      const startedAt = Date.now();
      await expect(reachRedis(`redis://127.0.0.1:${port}`, 500)).rejects.toThrow();
      await expect(reachMongo(`mongodb://127.0.0.1:${port}`, 500)).rejects.toThrow();
      expect(Date.now() - startedAt).toBeLessThan(4000);
    } finally {
      silent.close();
    }
  });

  it('waitForStore reports the first failure at once, gives up after waitMs naming store, address and reason, with advice', async () => {
    const port = await closedPort();
    const url = `redis://user:pw@127.0.0.1:${port}`;
    const notes: string[] = [];
    const startedAt = Date.now();
    const error = await waitForStore('Redis', url, (timeoutMs) => reachRedis(url, timeoutMs), {
      waitMs: 1500,
      note: (text) => notes.push(text),
      advice: 'Start Redis there.',
    }).catch((e: unknown) => e);
    expect(Date.now() - startedAt).toBeLessThan(4000);
    expect(error).toBeInstanceOf(StoreUnreachableError);
    expect((error as Error).message).toBe(
      `Redis at redis://[redacted]@127.0.0.1:${port} is not reachable: connect ECONNREFUSED 127.0.0.1:${port} (tried for 2 s)\n  Start Redis there.`,
    );
    expect(notes).toEqual([
      `Redis at redis://[redacted]@127.0.0.1:${port} is not reachable: connect ECONNREFUSED 127.0.0.1:${port}; trying again for 2 s`,
    ]);
  });

  it('waitForStore returns as soon as a store that was starting answers', async () => {
    let attempts = 0;
    const value = await waitForStore(
      'Redis',
      testRedisUrl(),
      async (timeoutMs) => {
        attempts++;
        if (attempts < 3) throw new Error('connect ECONNREFUSED (still starting)');
        await reachRedis(testRedisUrl(), timeoutMs);
        return 'up';
      },
      { waitMs: 5000, advice: '' },
    );
    expect({ value, attempts }).toEqual({ value: 'up', attempts: 3 });
  });
});

describe('provideMongo / provideRedis with the URL from the environment', () => {
  it('check the store and hand out the URL as given', async () => {
    const notes: string[] = [];
    const mongo = await provideMongo({ MONGO_URL: testMongoUrl() }, { note: (text) => notes.push(text) });
    const redis = await provideRedis({ REDIS_URL: testRedisUrl() }, { note: (text) => notes.push(text) });
    expect([mongo.url, mongo.source, redis.url, redis.source]).toEqual([
      testMongoUrl(),
      'env',
      testRedisUrl(),
      'env',
    ]);
    expect(notes).toEqual([]);
  });

  it('name an unreachable store, its address and the reason', async () => {
    const port = await closedPort();
    await expect(provideRedis({ REDIS_URL: `redis://127.0.0.1:${port}` }, { waitMs: 500 })).rejects.toThrow(
      new RegExp(`^Redis at redis://127\\.0\\.0\\.1:${port} is not reachable: connect ECONNREFUSED`),
    );
    await expect(provideMongo({ MONGO_URL: `mongodb://127.0.0.1:${port}` }, { waitMs: 500 })).rejects.toThrow(
      new RegExp(`^MongoDB at mongodb://127\\.0\\.0\\.1:${port} is not reachable: .*ECONNREFUSED`),
    );
  });
});

describe('initiateReplicaSet', () => {
  it('leaves a server that already is a replica set primary as it is', async () => {
    const port = Number(new URL(testMongoUrl()).port || 27017);
    await expect(initiateReplicaSet(port, 5000)).resolves.toBeUndefined();
    expect((await reachMongo(testMongoUrl())).replicaSet).toEqual(expect.any(String));
  });
});
