import express, { type ErrorRequestHandler, type Express, Router } from 'express';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { createMetrics, type Metrics } from './metrics';
import { metricsHandler, metricsMiddleware } from './metrics.middleware';

type Labels = Record<string, string | number>;

async function requestCounts(metrics: Metrics): Promise<Labels[]> {
  const { values } = await metrics.httpRequests.get();
  return values.map(({ labels, value }) => ({ ...(labels as Labels), count: value }));
}

const statusError = (status: number) => Object.assign(new Error(`status ${status}`), { status });

/** A small app shaped like the services: routers mounted at fixed paths, errors rendered at the end. */
function buildApp(metrics: Metrics): Express {
  const app = express();
  app.use(metricsMiddleware(metrics));
  app.get('/metrics', metricsHandler(metrics));
  app.get('/items/:id', (req, res) => {
    res.json({ id: req.params.id });
  });

  const tokens = Router();
  tokens
    .route('/tokens/:id')
    .get((req, res, next) => (req.params.id === 'missing' ? next(statusError(404)) : res.json({ ok: true })))
    .all((_req, _res, next) => next(statusError(405)));
  tokens.get('/slow', () => undefined); // never answers: the client gives up
  app.use('/api/v1/auth', tokens);

  app.use('/api/v1/proxied', (_req, res) => {
    res.locals['routeTemplate'] = '/api/v1/proxied/*';
    res.status(502).json({ error: 'bad gateway' });
  });
  app.use((_req, _res, next) => next(statusError(404)));
  const renderError: ErrorRequestHandler = (error: { status?: number }, _req, res, _next) => {
    res.status(error.status ?? 500).json({ error: 'failed' });
  };
  app.use(renderError);
  return app;
}

describe('metricsMiddleware', () => {
  let metrics: Metrics;
  let app: Express;
  beforeEach(() => {
    metrics = createMetrics('test');
    app = buildApp(metrics);
  });

  it('labels a matched route with its template, not the ids in the path', async () => {
    await request(app).get('/items/1').expect(200);
    await request(app).get('/items/2').expect(200);

    expect(await requestCounts(metrics)).toEqual([
      { method: 'GET', route: '/items/:id', status: '200', count: 2 },
    ]);
  });

  it('keeps the mount path of a router in the label, also for errors that leave the router', async () => {
    await request(app).get('/api/v1/auth/tokens/abc').expect(200);
    await request(app).get('/api/v1/auth/tokens/missing').expect(404);
    await request(app).delete('/api/v1/auth/tokens/abc').expect(405);

    expect(await requestCounts(metrics)).toEqual(
      expect.arrayContaining([
        { method: 'GET', route: '/api/v1/auth/tokens/:id', status: '200', count: 1 },
        { method: 'GET', route: '/api/v1/auth/tokens/:id', status: '404', count: 1 },
        { method: 'DELETE', route: '/api/v1/auth/tokens/:id', status: '405', count: 1 },
      ]),
    );
    expect((await requestCounts(metrics)).map((labels) => labels['route'])).not.toContain('/tokens/:id');
  });

  it('labels every unmatched path "unmatched", never with the raw URL', async () => {
    const rawPaths = ['/nope', '/api/v1/auth/unknown-thing', '/items', '/items/1/extra?x=1', '/%E2%9C%93'];
    for (const path of rawPaths) await request(app).get(path).expect(404);

    expect(await requestCounts(metrics)).toEqual([
      { method: 'GET', route: 'unmatched', status: '404', count: rawPaths.length },
    ]);
    const exposition = (await request(app).get('/metrics').expect(200)).text;
    for (const path of rawPaths) expect(exposition).not.toContain(`route="${path}`);
  });

  it('uses the template a router set in res.locals (proxied requests have no express route)', async () => {
    await request(app).post('/api/v1/proxied/a/b/c').expect(502);
    await request(app).post('/api/v1/proxied/x').expect(502);

    expect(await requestCounts(metrics)).toEqual([
      { method: 'POST', route: '/api/v1/proxied/*', status: '502', count: 2 },
    ]);
  });

  it('counts a request whose client hung up as "aborted" and times it', async () => {
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const abandoned = httpRequest({ port, host: '127.0.0.1', path: '/api/v1/auth/slow' });
      abandoned.on('error', () => undefined);
      abandoned.end();
      await new Promise((resolve) => setTimeout(resolve, 50));
      abandoned.destroy();
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }

    expect(await requestCounts(metrics)).toEqual([
      { method: 'GET', route: '/api/v1/auth/slow', status: 'aborted', count: 1 },
    ]);
    const { values } = await metrics.httpDuration.get();
    const count = values.find((v) => v.metricName === 'http_request_duration_seconds_count');
    expect(count).toMatchObject({ labels: { route: '/api/v1/auth/slow', status: 'aborted' }, value: 1 });
  });

  it('renders the Prometheus text format with the service label, uncached', async () => {
    await request(app).get('/items/7').expect(200);
    const response = await request(app).get('/metrics').expect(200);

    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.text).toContain(
      'http_requests_total{method="GET",route="/items/:id",status="200",service="test"} 1',
    );
    expect(response.text).toContain('# TYPE http_request_duration_seconds histogram');
    expect(response.text).toContain('process_cpu_user_seconds_total{service="test"}');
  });
});
