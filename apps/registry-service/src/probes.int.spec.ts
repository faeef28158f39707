import { silentLogger, testRedisUrl, closedPort } from '@mt/testing';
import { createMetrics } from '@mt/metrics';
import { createLifecycle } from '@mt/probes';
import { closeRedis, createRedis, waitForRedis, type Redis } from '@mt/stores';
import request from 'supertest';
import { createApp, createInstances } from './app';
import { loadRegistryConfig } from './config';

const SECRET = 'x'.repeat(32);

function build(redis: Redis) {
  const lifecycle = createLifecycle();
  const config = loadRegistryConfig({ INTERNAL_SECRET: SECRET, REDIS_URL: testRedisUrl() });
  const logger = silentLogger();
  return { lifecycle, app: createApp({ config, logger, lifecycle, redis, metrics: createMetrics('test'), instances: createInstances({ config, logger, redis }) }) };
}

describe('registry-service probes', () => {
  let redis: Redis;
  beforeAll(async () => {
    redis = createRedis({ url: testRedisUrl(), logger: silentLogger(), name: 'test' });
    await waitForRedis(redis);
  });
  afterAll(() => closeRedis(redis));

  it('reports healthy with Redis up', async () => {
    const { app, lifecycle } = build(redis);
    lifecycle.started = true;
    await request(app).get('/readyz').expect(200, { status: 'healthy', database: 'connected' });
    await request(app).get('/healthz').expect(200, { status: 'healthy', database: 'connected' });
    await request(app).get('/livez').expect(200, { status: 'alive' });
  });

  it('reports unhealthy with Redis unreachable while staying alive', async () => {
    const down = createRedis({ url: `redis://127.0.0.1:${await closedPort()}`, logger: silentLogger(), name: 'down' });
    const { app, lifecycle } = build(down);
    lifecycle.started = true;
    await request(app).get('/readyz').expect(503, { status: 'unhealthy', error: 'database unreachable' });
    await request(app).get('/livez').expect(200, { status: 'alive' });
    down.disconnect();
  });
});
