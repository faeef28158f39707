import {
  createHttpApp,
  createMetricsApp,
  finishHttpApp,
  healthReportOf,
  startService,
  type RunningService,
} from '@mt/http';
import { createMetrics } from '@mt/metrics';
import { createLifecycle } from '@mt/probes';
import { closeRedis, createRedis, pingRedis, waitForRedis, type Redis } from '@mt/stores';
import { closedPort, deleteRedisPrefix, silentLogger, testRedisPrefix, testRedisUrl } from '@mt/testing';
import { defineEndpoint, endpointRouter, PUBLIC, reply } from '@mt/endpoints';
import { z } from 'zod';
import { parsePrometheusText, sampleValue, type Sample } from './prometheus-text';

const SERVICE = 'metrics-check';
const ROUTE = '/api/v1/counters/:name';

/**
 * A service shaped like ours and started the way every service starts (startService): createHttpApp with a
 * feature router at a fixed mount path and Redis behind it on the API port, createMetricsApp on the metrics port.
 */
async function startMetricsService(
  redis: Redis,
  prefix: string,
): Promise<{ service: RunningService; url: string; metricsUrl: string }> {
  const lifecycle = createLifecycle();
  const logger = silentLogger();
  const metrics = createMetrics(SERVICE);
  const app = createHttpApp({
    logger,
    metrics,
    probes: { service: SERVICE, version: 'test', lifecycle, pingDatabase: () => pingRedis(redis) },
  });
  const countUp = defineEndpoint({
    name: 'countUp',
    method: 'POST',
    path: '/{name}',
    access: PUBLIC,
    summary: 'Count one up',
    params: z.strictObject({ name: z.string() }),
    responses: { 200: { description: 'The new count' } },
    handle: async ({ params }) => reply.ok({ name: params.name, value: await redis.incr(`${prefix}counter:${params.name}`) }),
  });
  app.use(endpointRouter([{ namespace: 'counters', mount: '/api/v1/counters', tags: [{ name: 'counters', description: 'Counters' }], endpoints: [countUp] }]));
  finishHttpApp(app, logger);
  const service = await startService({
    name: SERVICE,
    app,
    logger,
    lifecycle,
    port: 0,
    host: '127.0.0.1',
    shutdownTimeoutMs: 1000,
    metricsServer: { app: createMetricsApp({ metrics, health: healthReportOf(app), logger }), port: 0 },
    startup: async () => undefined,
    shutdown: async () => undefined,
  });
  await service.started;
  return {
    service,
    url: `http://127.0.0.1:${service.port}`,
    metricsUrl: `http://127.0.0.1:${service.metricsPort}`,
  };
}

async function scrapeMetrics(metricsUrl: string): Promise<{ text: string; samples: Sample[] }> {
  const response = await fetch(`${metricsUrl}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
  const text = await response.text();
  return { text, samples: parsePrometheusText(text) };
}

describe('GET /metrics on the metrics port of a service backed by real Redis', () => {
  const prefix = testRedisPrefix('metrics');
  let redis: Redis;
  let service: RunningService;
  let url: string;
  let metricsUrl: string;
  const scrape = () => scrapeMetrics(metricsUrl);

  beforeAll(async () => {
    redis = createRedis({ url: testRedisUrl(), logger: silentLogger(), name: 'metrics-check' });
    await waitForRedis(redis);
    ({ service, url, metricsUrl } = await startMetricsService(redis, prefix));
  });
  afterAll(async () => {
    await service.stop();
    await deleteRedisPrefix(prefix);
    await closeRedis(redis);
  });

  it('is not served on the API port: GET /metrics there is a 404 in the error payload', async () => {
    const response = await fetch(`${url}/metrics`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ status: 404, code: 'not_found' });
  });

  it('does not count its own scrapes (the metrics port is outside the request metrics)', async () => {
    const before = (await scrape()).samples;
    await scrape();
    const { samples, text } = await scrape();
    expect(text).not.toContain('route="/metrics"');
    expect(
      sampleValue(samples, 'http_requests_total', { method: 'GET', route: 'unmatched', status: '404' }),
    ).toBe(sampleValue(before, 'http_requests_total', { method: 'GET', route: 'unmatched', status: '404' }));
  });

  it('moves the request counter and the latency histogram by N, labelled with the route template', async () => {
    const labels = { method: 'POST', route: ROUTE, status: '200', service: SERVICE };
    const before = (await scrape()).samples;
    const N = 7;
    for (let i = 0; i < N; i += 1) {
      const response = await fetch(`${url}/api/v1/counters/item-${i}`, { method: 'POST' });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ name: `item-${i}`, value: 1 });
    }
    const { samples, text } = await scrape();

    expect(
      sampleValue(samples, 'http_requests_total', labels) -
        sampleValue(before, 'http_requests_total', labels),
    ).toBe(N);
    expect(
      sampleValue(samples, 'http_request_duration_seconds_count', labels) -
        sampleValue(before, 'http_request_duration_seconds_count', labels),
    ).toBe(N);
    expect(
      sampleValue(samples, 'http_request_duration_seconds_bucket', { ...labels, le: '+Inf' }),
    ).toBeGreaterThanOrEqual(N);
    // The Redis writes happened: the route really ran against the store.
    expect(await redis.get(`${prefix}counter:item-3`)).toBe('1');
    // No raw path reaches a label.
    expect(text).not.toMatch(/item-\d/);
  });

  it('labels 405s with the template and unmatched paths as "unmatched"', async () => {
    const before = (await scrape()).samples;
    expect((await fetch(`${url}/api/v1/counters/x`, { method: 'DELETE' })).status).toBe(405);
    expect((await fetch(`${url}/api/v1/counters/x/y/z`)).status).toBe(404);
    expect((await fetch(`${url}/no/such/path-123`)).status).toBe(404);
    const { samples, text } = await scrape();

    const delta = (labels: Record<string, string>) =>
      sampleValue(samples, 'http_requests_total', labels) -
      sampleValue(before, 'http_requests_total', labels);
    expect(delta({ method: 'DELETE', route: ROUTE, status: '405' })).toBe(1);
    expect(delta({ method: 'GET', route: 'unmatched', status: '404' })).toBe(2);
    expect(text).not.toContain('path-123');
  });

  it('counts the probes under their own paths', async () => {
    const before = (await scrape()).samples;
    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'healthy', database: 'connected' });
    const { samples } = await scrape();
    const labels = { method: 'GET', route: '/readyz', status: '200' };
    expect(
      sampleValue(samples, 'http_requests_total', labels) -
        sampleValue(before, 'http_requests_total', labels),
    ).toBe(1);
  });

  it('counts a store outage as 503 under the route template', async () => {
    const down = createRedis({
      url: `redis://127.0.0.1:${await closedPort()}`,
      logger: silentLogger(),
      name: 'down',
    });
    const broken = await startMetricsService(down, prefix);
    try {
      const response = await fetch(`${broken.url}/api/v1/counters/a`, { method: 'POST' });
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({ status: 503, code: 'service_unavailable' });
      const { samples } = await scrapeMetrics(broken.metricsUrl);
      expect(
        sampleValue(samples, 'http_requests_total', { method: 'POST', route: ROUTE, status: '503' }),
      ).toBe(1);
    } finally {
      await broken.service.stop();
      down.disconnect();
    }
  });
});
