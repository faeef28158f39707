import { INTERNAL_PATHS } from '@mt/contracts';
import { INTERNAL_SECRET_HEADER } from '@mt/identity';
import { createMetrics } from '@mt/metrics';
import { createLifecycle } from '@mt/probes';
import { createRedis } from '@mt/stores';
import { captureLogger, closedPort } from '@mt/testing';
import { sampleRegistration } from '@mt/registry-testing';
import request from 'supertest';
import { TEST_SECRET } from '../../test/registry-harness';
import { createApp, createInstances } from '../app';
import { loadRegistryConfig } from '../config';

describe('registry internal API with Redis unreachable', () => {
  it('answers 503 in the error payload, leaking no driver message', async () => {
    const { logger, lines } = captureLogger();
    const redis = createRedis({ url: `redis://127.0.0.1:${await closedPort()}`, logger, name: 'down' });
    const lifecycle = createLifecycle();
    lifecycle.started = true;
    const config = loadRegistryConfig({ INTERNAL_SECRET: TEST_SECRET, REDIS_URL: 'redis://127.0.0.1:1' });
    const app = createApp({ config, logger, lifecycle, redis, metrics: createMetrics('test'), instances: createInstances({ config, logger, redis }) });
    try {
      for (const test of [
        request(app).put(INTERNAL_PATHS.registryInstance('movies-1')).send(sampleRegistration('movies', 'http://x:1')),
        request(app).post(INTERNAL_PATHS.registryHeartbeat('movies-1')),
        request(app).delete(INTERNAL_PATHS.registryInstance('movies-1')),
        request(app).get(INTERNAL_PATHS.registryRoutes),
      ]) {
        const res = await test.set(INTERNAL_SECRET_HEADER, TEST_SECRET).expect(503);
        expect(res.body).toEqual({
          error: 'database unavailable',
          status: 503,
          code: 'service_unavailable',
          timestamp: expect.any(String),
          request_id: expect.any(String),
        });
      }
      expect(lines().join('\n')).not.toMatch(/\n\s+at /);
    } finally {
      redis.disconnect();
    }
  });
});
