import { toAppError } from '@mt/errors';
import {
  captureLogger,
  closedPort,
  silentLogger,
  startTcpProxy,
  testMongoUrl,
  testRedisUrl,
  itThroughRedisRelay,
} from '@mt/testing';
import { closeMongo, createMongoConnection, openMongo, pingMongo } from './mongo';
import { closeRedis, createRedis, pingRedis, waitForRedis } from './redis';

/** The store helpers give up within their bounds when a store is unreachable: no 30 s hangs. */

const elapsedSince = (startedAt: number) => Date.now() - startedAt;

async function failureOf(operation: Promise<unknown>): Promise<Error> {
  try {
    await operation;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the operation to fail');
}

describe('MongoDB helpers', () => {
  it('connect, ping and close against a real MongoDB', async () => {
    const connection = createMongoConnection();
    await openMongo(connection, { url: testMongoUrl(), dbName: 'stores_int', logger: silentLogger() });
    await expect(pingMongo(connection)).resolves.toBeUndefined();
    await closeMongo(connection);
    await expect(pingMongo(connection)).rejects.toThrow('mongodb not connected');
  });

  it('ping of a connection that was never opened fails at once', async () => {
    const startedAt = Date.now();
    await expect(pingMongo(createMongoConnection())).rejects.toThrow('mongodb not connected');
    expect(elapsedSince(startedAt)).toBeLessThan(100);
  });

  it("keep retrying an unreachable MongoDB, naming its address and the driver's reason once per 5 s, until start-up is aborted", async () => {
    const { logger, lines } = captureLogger();
    const connection = createMongoConnection();
    const controller = new AbortController();
    const address = `mongodb://127.0.0.1:${await closedPort()}`;
    const opening = openMongo(connection, { url: address, dbName: 'stores_int', logger }, controller.signal);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const abortedAt = Date.now();
    controller.abort();
    await opening;
    expect(elapsedSince(abortedAt)).toBeLessThan(2500);
    // Several attempts in 2.5 s (backoff from 250 ms), one line.
    const reported = lines().filter((line) => line.includes('mongodb not reachable yet'));
    expect(reported).toHaveLength(1);
    expect(JSON.parse(reported[0]!)).toMatchObject({
      level: 40,
      address,
      attempt: 1,
      reason: expect.stringContaining('ECONNREFUSED'),
    });
    await closeMongo(connection);
  });

  it('fail an operation within ~2 s once MongoDB is gone (no buffering), as a 503', async () => {
    const proxy = await startTcpProxy(testMongoUrl());
    const connection = createMongoConnection();
    await openMongo(connection, { url: proxy.url, dbName: 'stores_int', logger: silentLogger() });
    try {
      await connection.db!.collection('things').findOne({});
      await proxy.cut();
      const startedAt = Date.now();
      const error = await failureOf(connection.db!.collection('things').findOne({}));
      expect(elapsedSince(startedAt)).toBeLessThan(2500);
      // The driver error is part of the compared object, so a failure names the error that was not mapped.
      const mapped = toAppError(error);
      expect({
        driverError: `${(error as Error).name}: ${(error as Error).message}`,
        status: mapped.status,
        code: mapped.code,
      }).toMatchObject({
        status: 503,
        code: 'service_unavailable',
      });
      const pingStartedAt = Date.now();
      await expect(pingMongo(connection)).rejects.toThrow();
      expect(elapsedSince(pingStartedAt)).toBeLessThan(2500);
    } finally {
      await closeMongo(connection);
      await proxy.close();
    }
  });
});

describe('Redis helpers', () => {
  it('connect, ping and close against a real Redis', async () => {
    const redis = createRedis({ url: testRedisUrl(), logger: silentLogger(), name: 'stores-int' });
    await waitForRedis(redis);
    await expect(pingRedis(redis)).resolves.toBeUndefined();
    await closeRedis(redis);
    await expect(pingRedis(redis)).rejects.toThrow();
  });

  it('fail commands at once while Redis is unreachable (no offline queue), as a 503', async () => {
    const redis = createRedis({
      url: `redis://127.0.0.1:${await closedPort()}`,
      logger: silentLogger(),
      name: 'stores-int-down',
    });
    try {
      const startedAt = Date.now();
      const error = await failureOf(redis.get('anything'));
      expect(elapsedSince(startedAt)).toBeLessThan(500);
      // The driver error is part of the compared object, so a failure names the error that was not mapped.
      const mapped = toAppError(error);
      expect({
        driverError: `${(error as Error).name}: ${(error as Error).message}`,
        status: mapped.status,
        code: mapped.code,
      }).toMatchObject({
        status: 503,
        code: 'service_unavailable',
      });
      await expect(pingRedis(redis)).rejects.toThrow('redis not connected');
    } finally {
      await closeRedis(redis);
    }
  });

  it('wait for an unreachable Redis only until start-up is aborted', async () => {
    const redis = createRedis({
      url: `redis://127.0.0.1:${await closedPort()}`,
      logger: silentLogger(),
      name: 'stores-int-wait',
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const startedAt = Date.now();
    await waitForRedis(redis, controller.signal);
    expect(elapsedSince(startedAt)).toBeLessThan(1000);
    expect(redis.status).not.toBe('ready');
    const closingAt = Date.now();
    await closeRedis(redis);
    expect(elapsedSince(closingAt)).toBeLessThan(300);
  });

  it("while waiting for an unreachable Redis, name its address and the driver's reason at once, then at most every 5 s", async () => {
    const { logger, lines } = captureLogger();
    const address = `redis://127.0.0.1:${await closedPort()}`;
    const redis = createRedis({ url: address, logger, name: 'stores-int-report' });
    try {
      await waitForRedis(redis, AbortSignal.timeout(2500));
      const reported = lines().filter((line) => line.includes('redis not reachable yet'));
      expect(reported).toHaveLength(1);
      expect(JSON.parse(reported[0]!)).toMatchObject({
        level: 40,
        address,
        reason: expect.stringContaining('ECONNREFUSED'),
      });
      // ioredis retried several times meanwhile.
      expect(lines().filter((line) => line.includes('"msg":"redis error"')).length).toBeGreaterThan(1);
    } finally {
      await closeRedis(redis);
    }
  });

  itThroughRedisRelay('fail within the 1.5 s command timeout when Redis goes away, and reconnect when it is back', async () => {
    const proxy = await startTcpProxy(testRedisUrl());
    const { logger, lines } = captureLogger();
    const redis = createRedis({ url: proxy.url, logger, name: 'stores-int-cut' });
    try {
      await waitForRedis(redis);
      await proxy.cut();
      const startedAt = Date.now();
      const error = await failureOf(redis.get('anything'));
      expect(elapsedSince(startedAt)).toBeLessThan(2000);
      // The driver error is part of the compared object, so a failure names the error that was not mapped.
      const mapped = toAppError(error);
      expect({
        driverError: `${(error as Error).name}: ${(error as Error).message}`,
        status: mapped.status,
        code: mapped.code,
      }).toMatchObject({
        status: 503,
        code: 'service_unavailable',
      });

      await proxy.restore();
      await waitForRedis(redis, AbortSignal.timeout(5000));
      await expect(pingRedis(redis)).resolves.toBeUndefined();
      expect(lines().some((line) => line.includes('redis reconnected'))).toBe(true);
    } finally {
      await closeRedis(redis);
      await proxy.close();
    }
  });
});
