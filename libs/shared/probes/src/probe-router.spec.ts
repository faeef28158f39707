import express from 'express';
import request from 'supertest';
import { createLifecycle, type Lifecycle } from './lifecycle';
import { createHealthReport, createProbeRouter, isProbePath, type ProbeOptions } from './probe-router';

const HEALTHY = { status: 'healthy', database: 'connected' };
const UNREACHABLE = { status: 'unhealthy', error: 'database unreachable' };

function buildApp(overrides: Partial<ProbeOptions> = {}) {
  const lifecycle: Lifecycle = createLifecycle();
  let databaseUp = true;
  const options: ProbeOptions = {
    service: 'catalog-service',
    version: '1.2.3',
    lifecycle,
    pingDatabase: async () => {
      if (!databaseUp) throw new Error('down');
    },
    ...overrides,
  };
  const app = express().use(createProbeRouter(options));
  return { app, lifecycle, setDatabase: (up: boolean) => (databaseUp = up) };
}

describe('probes', () => {
  it('isProbePath names exactly the paths the probe router answers (apps skip the router for the others)', async () => {
    const { lifecycle } = buildApp();
    lifecycle.started = true;
    const app = express()
      .use(createProbeRouter({ service: 'svc', version: '1', lifecycle, pingDatabase: async () => undefined }))
      .use((_req, res) => void res.status(418).end());
    const paths = ['/livez', '/LIVEZ', '/livez/', '/Readyz', '/startupz', '/healthz/', '/health', '/livez/x', '/livez//', '/live', '/', '/api/v1/movies'];
    for (const path of paths) {
      const answered = (await request(app).get(path)).status !== 418;
      expect({ path, probe: isProbePath(path) }).toEqual({ path, probe: answered });
    }
  });

  it('/livez is alive whatever the state, uncached', async () => {
    const { app, lifecycle, setDatabase } = buildApp();
    setDatabase(false);
    lifecycle.shuttingDown = true;
    const res = await request(app).get('/livez').expect(200, { status: 'alive' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('/startupz says starting until start-up has finished', async () => {
    const { app, lifecycle } = buildApp();
    await request(app).get('/startupz').expect(503, { status: 'starting' });
    lifecycle.started = true;
    await request(app).get('/startupz').expect(200, { status: 'started' });
  });

  it('/readyz is healthy once started with the database up', async () => {
    const { app, lifecycle } = buildApp();
    lifecycle.started = true;
    await request(app).get('/readyz').expect(200, HEALTHY);
  });

  it('/readyz is 503 "starting" before start-up has finished, with the database up', async () => {
    const { app } = buildApp();
    await request(app).get('/readyz').expect(503, { status: 'unhealthy', error: 'starting' });
  });

  it('/readyz is 503 "database unreachable" when the database is down, during start-up too', async () => {
    const { app, lifecycle, setDatabase } = buildApp();
    setDatabase(false);
    await request(app).get('/readyz').expect(503, UNREACHABLE);
    lifecycle.started = true;
    await request(app).get('/readyz').expect(503, UNREACHABLE);
  });

  it('/readyz is 503 "shutting down" while shutting down, even with the database up', async () => {
    const { app, lifecycle } = buildApp();
    lifecycle.started = true;
    lifecycle.shuttingDown = true;
    await request(app).get('/readyz').expect(503, { status: 'unhealthy', error: 'shutting down' });
  });

  it('/healthz reflects the database only', async () => {
    const { app, setDatabase } = buildApp();
    await request(app).get('/healthz').expect(200, HEALTHY);
    setDatabase(false);
    await request(app).get('/healthz').expect(503, UNREACHABLE);
  });

  it('/health adds service, version and uptime', async () => {
    const { app, setDatabase } = buildApp();
    const res = await request(app).get('/health').expect(200);
    expect(res.body).toEqual({ ...HEALTHY, service: 'catalog-service', version: '1.2.3', uptime_seconds: expect.any(Number) });
    setDatabase(false);
    const down = await request(app).get('/health').expect(503);
    expect(down.body).toEqual({ ...UNREACHABLE, service: 'catalog-service', version: '1.2.3', uptime_seconds: expect.any(Number) });
  });

  const upstreams = async () => ({
    summary: { auth: { status: 'healthy' as const }, 'catalog:movies': { status: 'healthy' as const } },
    detailed: {
      auth: { status: 'healthy' as const },
      'catalog:movies:movies-host-42': { status: 'healthy' as const, instance_id: 'movies-host-42', base_url: 'http://10.0.0.7:3011' },
    },
  });

  it('/health on the gateway lists each upstream by its public summary, never instance details', async () => {
    const { app } = buildApp({ upstreams });
    const res = await request(app).get('/health').expect(200);
    expect(res.body.services).toEqual({ auth: { status: 'healthy' }, 'catalog:movies': { status: 'healthy' } });
    expect(JSON.stringify(res.body)).not.toMatch(/movies-host-42|10\.0\.0\.7/);
  });

  it('the detailed health report (for the metrics port) shows every instance', async () => {
    const lifecycle = createLifecycle();
    const report = createHealthReport({ service: 'gateway', version: '1', lifecycle, pingDatabase: async () => undefined, upstreams });
    const answer = await report('detailed');
    expect(answer).toEqual({
      status: 200,
      body: expect.objectContaining({ ...HEALTHY, service: 'gateway', services: (await upstreams()).detailed }),
    });
    expect((await report('public')).body['services']).toEqual((await upstreams()).summary);
  });

  it('answers within the ping timeout when the database ping hangs', async () => {
    const { app } = buildApp({ pingDatabase: () => new Promise(() => undefined), pingTimeoutMs: 300 });
    const startedAt = Date.now();
    await request(app).get('/healthz').expect(503, UNREACHABLE);
    expect(Date.now() - startedAt).toBeLessThan(1000);
  });

  it('treats a ping that throws synchronously as unreachable', async () => {
    const { app } = buildApp({
      pingDatabase: () => {
        throw new Error('not connected');
      },
    });
    await request(app).get('/healthz').expect(503, UNREACHABLE);
  });

  it('ignores credentials', async () => {
    const { app } = buildApp();
    await request(app).get('/livez').set('Authorization', 'Bearer garbage').expect(200, { status: 'alive' });
  });
});
