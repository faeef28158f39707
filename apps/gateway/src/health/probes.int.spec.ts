import { healthReportOf } from '@mt/http';
import request from 'supertest';
import { startTestGateway, type TestGateway } from '../../test/gateway';
import { createSigningKey } from '../../test/keys';
import { startHttpServer, type RunningServer } from '../../test/servers';
import { StaticRouteTable } from '../../test/static-route-table';
import { startEchoUpstream, startFakeAuthService, type EchoUpstream, type FakeAuthService } from '../../test/upstreams';

describe('gateway probes', () => {
  let auth: FakeAuthService;
  let movies: EchoUpstream;
  let stuck: RunningServer;
  let routeTable: StaticRouteTable;

  beforeAll(async () => {
    [auth, movies] = await Promise.all([startFakeAuthService([createSigningKey('k1')]), startEchoUpstream('movies-1')]);
    stuck = await startHttpServer(() => undefined); // accepts, never answers
    routeTable = new StaticRouteTable()
      .setInstances('movies', [{ id: 'm1', url: movies.url }])
      .setInstances('books', [{ id: 'b1', url: stuck.url }]);
  });

  afterAll(async () => {
    await Promise.all([auth.close(), movies.close(), stuck.close()]);
  });

  describe('with Redis up', () => {
    let gateway: TestGateway;
    beforeAll(async () => {
      gateway = await startTestGateway({ routeTable, authUrl: auth.url });
    });
    afterAll(() => gateway.close());

    it('answers the probes, ignoring credentials', async () => {
      const bad = { Authorization: 'Bearer definitely-not-valid' };
      await request(gateway.app).get('/livez').set(bad).expect(200, { status: 'alive' });
      await request(gateway.app).get('/startupz').set(bad).expect(200, { status: 'started' });
      await request(gateway.app).get('/readyz').set(bad).expect(200, { status: 'healthy', database: 'connected' });
      await request(gateway.app).get('/healthz').set(bad).expect(200, { status: 'healthy', database: 'connected' });
    });

    it('reports each upstream in /health, in parallel and within a bounded time: per category, no instance ids or addresses', async () => {
      const started = Date.now();
      const res = await request(gateway.app).get('/health');
      expect(Date.now() - started).toBeLessThan(2_500);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        status: 'healthy',
        database: 'connected',
        service: 'gateway',
        version: '1.0.0',
        uptime_seconds: expect.any(Number),
        services: {
          auth: { status: 'healthy' },
          registry: { status: 'unhealthy', error: 'unreachable' },
          'service:auth': { status: 'healthy' },
          'catalog:movies': { status: 'healthy' },
          'catalog:books': { status: 'unhealthy', error: 'no healthy instance' },
        },
      });
      expect(JSON.stringify(res.body)).not.toMatch(/m1|b1|auth-1|127\.0\.0\.1/);
    });

    it('keeps every instance, with its id, address and version, for the detailed /health of the metrics port', async () => {
      const { status, body } = await healthReportOf(gateway.app)('detailed');
      expect(status).toBe(200);
      expect(body['services']).toEqual({
        auth: { status: 'healthy' },
        registry: { status: 'unhealthy', error: 'unreachable' },
        'service:auth:auth-1': { status: 'healthy', service: 'auth', instance_id: 'auth-1', version: '1.0.0', base_url: auth.url },
        'catalog:movies:m1': { status: 'healthy', service: 'movies', instance_id: 'm1', version: '1.0.0', base_url: movies.url },
        'catalog:books:b1': { status: 'unhealthy', error: 'timed out', service: 'books', instance_id: 'b1', version: '1.0.0', base_url: stuck.url },
      });
    });

    it('calls a category healthy while one of its instances is', async () => {
      const mixed = new StaticRouteTable().setInstances('movies', [
        { id: 'm-dead', url: stuck.url },
        { id: 'm-live', url: movies.url },
      ]);
      const other = await startTestGateway({ routeTable: mixed, authUrl: auth.url });
      try {
        const res = await request(other.app).get('/health').expect(200);
        expect(res.body.services['catalog:movies']).toEqual({ status: 'healthy' });
      } finally {
        await other.close();
      }
    });
  });

  describe('with Redis down', () => {
    let gateway: TestGateway;
    beforeAll(async () => {
      gateway = await startTestGateway({ routeTable, authUrl: auth.url, redisDown: true });
    });
    afterAll(() => gateway.close());

    it('is alive but neither ready nor healthy', async () => {
      await request(gateway.app).get('/livez').expect(200, { status: 'alive' });
      await request(gateway.app).get('/readyz').expect(503, { status: 'unhealthy', error: 'database unreachable' });
      const health = await request(gateway.app).get('/health');
      expect(health.status).toBe(503);
      expect(health.body).toMatchObject({ status: 'unhealthy', error: 'database unreachable', service: 'gateway' });
      expect(health.body.services.auth).toEqual({ status: 'healthy' });
    });
  });
});
