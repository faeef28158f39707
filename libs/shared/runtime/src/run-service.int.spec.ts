import { ConfigError } from '@mt/config';
import { createHttpApp, finishHttpApp, type RunningService } from '@mt/http';
import { pingMongo, type Redis } from '@mt/stores';
import {
  deleteRedisPrefix,
  dropTestDatabase,
  testDbName,
  testMongoUrl,
  testRedisPrefix,
  testRedisUrl,
} from '@mt/testing';
import { Router } from 'express';
import type { Connection } from 'mongoose';
import {
  startServiceProcess,
  startupFailureMessage,
  type ServiceBaseConfig,
  type ServiceContext,
  type StoreClients,
} from './run-service';

/** A small service run the way every main.ts runs its own: real MongoDB, real Redis, real HTTP. */
interface TestConfig extends ServiceBaseConfig {
  MONGO_URL: string;
  MONGO_DB_NAME: string;
  REDIS_URL: string;
}

type TestStores = { mongo: { url: string; dbName: string }; redis: { url: string; waitAtStartup: boolean } };

const dbName = testDbName('runtime');
const prefix = testRedisPrefix('runtime');
const config = (): TestConfig => ({
  PORT: 0,
  HOST: '127.0.0.1',
  LOG_LEVEL: 'silent',
  SHUTDOWN_TIMEOUT_MS: 2000,
  METRICS_PORT: 0,
  REQUEST_TIMEOUT_MS: 30_000,
  MONGO_URL: testMongoUrl(),
  MONGO_DB_NAME: dbName,
  REDIS_URL: testRedisUrl(),
});

/** ioredis reports `end` once the socket has closed (a moment after disconnect()). */
async function redisStatusSoon(redis: Redis): Promise<string> {
  for (const deadline = Date.now() + 2000; redis.status !== 'end' && Date.now() < deadline;) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return redis.status;
}

function defineTestService(events: string[], seen: { mongo?: Connection; redis?: Redis } = {}) {
  return {
    name: 'runtime-test',
    loadConfig: config,
    instance: () => ({ id: 'one', logFields: { instance: 'one' } }),
    stores: (c: TestConfig): TestStores => ({
      mongo: { url: c.MONGO_URL, dbName: c.MONGO_DB_NAME },
      redis: { url: c.REDIS_URL, waitAtStartup: true },
    }),
    create: ({
      logger,
      lifecycle,
      metrics,
      mongo,
      redis,
    }: ServiceContext<TestConfig> & StoreClients<TestStores>) => {
      seen.mongo = mongo;
      seen.redis = redis;
      const app = createHttpApp({
        logger,
        metrics,
        probes: { service: 'runtime-test', version: '1', lifecycle, pingDatabase: () => pingMongo(mongo) },
      });
      const router = Router();
      router.post('/things/:name', async (req, res) => {
        const name = String(req.params['name']);
        await mongo.db!.collection('things').insertOne({ name });
        res.status(201).json({ name, count: await redis.incr(`${prefix}things`) });
      });
      app.use(router);
      return {
        app: finishHttpApp(app, logger),
        startup: async () =>
          void events.push(
            `startup (mongo ${mongo.readyState === 1 ? 'connected' : 'not connected'}, redis ${redis.status})`,
          ),
        registration: {
          start: () => void events.push('registration started'),
          registered: async () => void events.push('registered'),
          stop: async () => void events.push('registration stopped'),
        },
        shutdown: async () => void events.push('shutdown'),
      };
    },
  };
}

describe('startServiceProcess (the start-up of every main.ts)', () => {
  let running: RunningService | undefined;
  afterEach(async () => {
    await running?.stop();
    running = undefined;
  });
  afterAll(async () => {
    await dropTestDatabase(dbName);
    await deleteRedisPrefix(prefix);
  });

  it('connects the stores, then runs start-up, then registers; serves the API on PORT and metrics on METRICS_PORT', async () => {
    const events: string[] = [];
    running = await startServiceProcess(defineTestService(events), { attachToProcess: false });
    await running.started;
    expect(events).toEqual(['startup (mongo connected, redis ready)', 'registration started', 'registered']);
    const api = `http://127.0.0.1:${running.port}`;
    const ops = `http://127.0.0.1:${running.metricsPort}`;
    expect(running.metricsPort).not.toBe(running.port);

    const created = await fetch(`${api}/things/a`, { method: 'POST' });
    expect(created.status).toBe(201);
    expect(await created.json()).toEqual({ name: 'a', count: 1 });

    // The public port has no /metrics: it is an unknown path like any other.
    const publicMetrics = await fetch(`${api}/metrics`);
    expect(publicMetrics.status).toBe(404);
    expect(await publicMetrics.json()).toMatchObject({
      status: 404,
      code: 'not_found',
      request_id: expect.any(String),
    });

    const scraped = await fetch(`${ops}/metrics`);
    expect(scraped.status).toBe(200);
    expect(scraped.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await scraped.text()).toMatch(
      /^http_requests_total\{method="POST",route="\/things\/:name",status="201",service="runtime-test"\} 1$/m,
    );
    const health = await fetch(`${ops}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({
      status: 'healthy',
      database: 'connected',
      service: 'runtime-test',
    });
    const unknown = await fetch(`${ops}/api/v1/things`);
    expect(unknown.status).toBe(404);
    expect((await fetch(`${ops}/metrics`, { method: 'POST' })).status).toBe(405);
  });

  it('on stop, withdraws the registration first, then shuts the service down and closes its stores and both ports', async () => {
    const events: string[] = [];
    const seen: { mongo?: Connection; redis?: Redis } = {};
    running = await startServiceProcess(defineTestService(events, seen), { attachToProcess: false });
    await running.started;
    const { port, metricsPort } = running;
    await running.stop('test');
    running = undefined;
    expect(events.slice(3)).toEqual(['registration stopped', 'registration stopped', 'shutdown']);
    expect(seen.mongo!.readyState).toBe(0);
    expect(await redisStatusSoon(seen.redis!)).toBe('end');
    for (const p of [port, metricsPort]) await expect(fetch(`http://127.0.0.1:${p}/livez`)).rejects.toThrow();
  });

  it('closes the stores it opened when the service cannot be built, and says why in one line', async () => {
    const seen: { mongo?: Connection; redis?: Redis } = {};
    const definition = defineTestService([], seen);
    const failing = {
      ...definition,
      create: (context: Parameters<typeof definition.create>[0]) => {
        definition.create(context);
        throw new Error('JWT_PRIVATE_KEY: not a readable PEM private key');
      },
    };
    const error = await startServiceProcess(failing, { attachToProcess: false }).catch((e: unknown) => e);
    expect(startupFailureMessage(error)).toBe(
      'start-up failed: JWT_PRIVATE_KEY: not a readable PEM private key',
    );
    expect(await redisStatusSoon(seen.redis!)).toBe('end');
    expect(seen.mongo!.readyState).toBe(0);
  });

  it('names a port in use by its variable', async () => {
    running = await startServiceProcess(defineTestService([]), { attachToProcess: false });
    const taken = running.metricsPort!;
    const clash = { ...defineTestService([]), loadConfig: () => ({ ...config(), METRICS_PORT: taken }) };
    const error = await startServiceProcess(clash, { attachToProcess: false }).catch((e: unknown) => e);
    expect(startupFailureMessage(error)).toBe(
      `start-up failed: METRICS_PORT: port ${taken} on 127.0.0.1 is already in use`,
    );
  });

  it('prints a configuration error as it is: every bad variable named', () => {
    expect(
      startupFailureMessage(
        new ConfigError([
          'PORT: must be a non-negative integer',
          'METRICS_PORT: must be a non-negative integer',
        ]),
      ),
    ).toBe(
      'Invalid configuration:\n  - PORT: must be a non-negative integer\n  - METRICS_PORT: must be a non-negative integer',
    );
  });
});
