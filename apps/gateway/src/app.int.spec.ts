import request from 'supertest';
import { startTestGateway, type TestGateway } from '../test/gateway';
import { createSigningKey, signJwt, type SigningKey } from '../test/keys';
import { StaticRouteTable } from '../test/static-route-table';
import { startEchoUpstream, startFakeAuthService, type EchoUpstream, type FakeAuthService } from '../test/upstreams';
import { DOCS_CONTENT_SECURITY_POLICY } from './discovery';

describe('gateway app wiring', () => {
  let key: SigningKey;
  let auth: FakeAuthService;
  let movies: EchoUpstream;
  let gateway: TestGateway;

  beforeAll(async () => {
    key = createSigningKey('k1');
    [auth, movies] = await Promise.all([startFakeAuthService([key]), startEchoUpstream('movies-1')]);
    const routeTable = new StaticRouteTable()
      .setInstances('movies', [{ id: 'm1', url: movies.url }])
      .setInstances('books', [{ id: 'b1', url: movies.url }]);
    gateway = await startTestGateway({ routeTable, authUrl: auth.url });
  });

  afterAll(async () => {
    await gateway.close();
    await Promise.all([auth.close(), movies.close()]);
  });

  it('serves its own discovery routes before any proxying, rate limited like every API route', async () => {
    const res = await request(gateway.app).get('/api/v1/categories');
    expect(res.status).toBe(200);
    expect((res.body as Array<{ id: string }>).map((c) => c.id)).toEqual(['books', 'movies']);
    expect(res.headers['ratelimit-limit']).toBe('1200');
    expect(movies.requests()).toBe(0);
  });

  it('applies the credential rule to the discovery routes: a valid one is ignored, an invalid one is a 401', async () => {
    await request(gateway.app).get('/api/v1/categories').set('Authorization', `Bearer ${signJwt(key)}`).expect(200);
    const res = await request(gateway.app).get('/api/v1/categories').set('Authorization', 'Bearer expired.or.forged');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('unauthorized');
  });

  it('lets the docs page replace the strict JSON CSP with its own', async () => {
    const docs = await request(gateway.app).get('/api/v1/docs');
    expect(docs.status).toBe(200);
    expect(docs.headers['content-security-policy']).toBe(DOCS_CONTENT_SECURITY_POLICY);
    const json = await request(gateway.app).get('/api/v1/categories');
    expect(json.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
  });

  it('labels proxied requests with their route template in the metrics', async () => {
    await request(gateway.app).get('/api/v1/movies/665f1c').expect(200);
    const text = await gateway.metrics.registry.metrics();
    expect(text).toMatch(/http_requests_total\{method="GET",route="\/api\/v1\/movies\/\{id\}",status="200"/);
    expect(text).not.toContain('665f1c');
  });
});
