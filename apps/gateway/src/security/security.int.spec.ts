import request from 'supertest';
import { startTestGateway, type TestGateway } from '../../test/gateway';
import { rawRequest } from '../../test/http-client';
import { createSigningKey } from '../../test/keys';
import { startHttpServer, type RunningServer } from '../../test/servers';
import { StaticRouteTable } from '../../test/static-route-table';
import { startEchoUpstream, startFakeAuthService, type EchoUpstream, type FakeAuthService } from '../../test/upstreams';

const ALLOWED = 'https://app.example.com';

const errorBody = (status: number, code: string, error: string, requestId: unknown) => ({
  error,
  status,
  code,
  timestamp: expect.any(String),
  request_id: requestId,
});

describe('gateway public face', () => {
  let auth: FakeAuthService;
  let movies: EchoUpstream;
  let gateway: TestGateway;
  let closedGateway: TestGateway;
  let server: RunningServer;

  beforeAll(async () => {
    [auth, movies] = await Promise.all([startFakeAuthService([createSigningKey('k1')]), startEchoUpstream('movies-1')]);
    const routeTable = new StaticRouteTable().setInstances('movies', [{ id: 'm1', url: movies.url }]);
    gateway = await startTestGateway({ routeTable, authUrl: auth.url, env: { CORS_ORIGINS: `${ALLOWED}, https://admin.example.com` } });
    closedGateway = await startTestGateway({ routeTable, authUrl: auth.url });
    server = await startHttpServer(gateway.app);
  });

  afterAll(async () => {
    await server.close();
    await Promise.all([gateway.close(), closedGateway.close()]);
    await Promise.all([auth.close(), movies.close()]);
  });

  describe('security headers', () => {
    it.each(['/api/v1/movies', '/api/v1/nowhere', '/livez'])('sets helmet headers with a strict CSP on %s', async (path) => {
      const res = await request(gateway.app).get(path);
      expect(res.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(res.headers['x-powered-by']).toBeUndefined();
    });
  });

  describe('CORS', () => {
    it('allows a configured origin and exposes X-Request-Id and the RateLimit headers', async () => {
      const res = await request(gateway.app).get('/api/v1/movies').set('Origin', ALLOWED);
      expect(res.status).toBe(200);
      expect(res.headers['access-control-allow-origin']).toBe(ALLOWED);
      expect(res.headers['access-control-expose-headers']).toBe(
        'X-Request-Id,RateLimit-Limit,RateLimit-Remaining,RateLimit-Reset,Retry-After',
      );
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
      expect(res.headers['vary']).toMatch(/Origin/);
    });

    it('answers a preflight from a configured origin with 204', async () => {
      const res = await request(gateway.app)
        .options('/api/v1/movies/list')
        .set('Origin', ALLOWED)
        .set('Access-Control-Request-Method', 'POST')
        .set('Access-Control-Request-Headers', 'authorization, content-type');
      expect(res.status).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe(ALLOWED);
      expect(res.headers['access-control-allow-methods']).toBe('GET,HEAD,POST,PUT,PATCH,DELETE');
      expect(res.headers['access-control-allow-headers']).toBe('Authorization,Content-Type,X-Request-Id');
      expect(res.headers['access-control-max-age']).toBe('600');
    });

    it('gives another origin no CORS headers, and refuses its preflight with 403', async () => {
      const simple = await request(gateway.app).get('/api/v1/movies').set('Origin', 'https://evil.example.net');
      expect(simple.status).toBe(200);
      expect(simple.headers['access-control-allow-origin']).toBeUndefined();

      const preflight = await request(gateway.app)
        .options('/api/v1/movies')
        .set('Origin', 'https://evil.example.net')
        .set('Access-Control-Request-Method', 'DELETE');
      expect(preflight.status).toBe(403);
      expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
      expect(preflight.body).toEqual(errorBody(403, 'forbidden', 'origin not allowed', preflight.headers['x-request-id']));
    });

    it('allows no cross-origin access when CORS_ORIGINS is empty (the default)', async () => {
      const simple = await request(closedGateway.app).get('/api/v1/movies').set('Origin', ALLOWED);
      expect(simple.headers['access-control-allow-origin']).toBeUndefined();
      const preflight = await request(closedGateway.app)
        .options('/api/v1/movies')
        .set('Origin', ALLOWED)
        .set('Access-Control-Request-Method', 'GET');
      expect(preflight.status).toBe(403);
      expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    });
  });

  describe('body limit', () => {
    it('answers 413 for a declared body over 1 MiB without reaching the upstream', async () => {
      const before = auth.calls.public;
      const body = Buffer.alloc(1024 * 1024 + 1, 'a');
      const res = await rawRequest(server.url, {
        method: 'POST',
        path: '/api/v1/auth/register',
        headers: { 'content-type': 'application/json', 'content-length': String(body.length), 'x-request-id': 'big-1' },
        chunks: [body],
      });
      expect(res.status).toBe(413);
      expect(res.json()).toEqual(errorBody(413, 'payload_too_large', 'request body exceeds 1 MiB', 'big-1'));
      expect(auth.calls.public).toBe(before);
    });

    it('forwards a body of exactly 1 MiB', async () => {
      const body = Buffer.alloc(1024 * 1024, 'b');
      const res = await rawRequest(server.url, {
        method: 'POST',
        path: '/api/v1/auth/register',
        headers: { 'content-type': 'application/json', 'content-length': String(body.length) },
        chunks: [body],
      });
      expect(res.status).toBe(200);
      expect((res.json() as { body_bytes: number }).body_bytes).toBe(body.length);
    });
  });

  describe('unknown routes and methods', () => {
    it.each(['/nope', '/api', '/api/v1', '/api/v2/movies', '/api/v1/auth/unknown', '/api/v1/movies/list/a/b'])(
      'answers a JSON 404 for %s',
      async (path) => {
        const res = await request(gateway.app).get(path);
        expect(res.status).toBe(404);
        expect(res.body).toEqual(errorBody(404, 'not_found', expect.any(String), res.headers['x-request-id']));
      },
    );

    it.each([
      ['delete', '/api/v1/auth/login', 'POST'],
      ['get', '/api/v1/auth/password', 'PUT'],
      ['put', '/api/v1/movies', 'GET, POST, HEAD'],
      ['get', '/api/v1/movies/bulk-status', 'POST'],
      ['post', '/api/v1/movies/abc', 'GET, PATCH, HEAD'],
      ['post', '/api/v1/categories', 'GET, HEAD'],
      ['delete', '/api/v1/openapi.json', 'GET, HEAD'],
    ])('answers %s %s with a JSON 405 and Allow: %s', async (method, path, allow) => {
      const res = await request(gateway.app)[method as 'get'](path);
      expect(res.status).toBe(405);
      expect(res.headers['allow']).toBe(allow);
      expect(res.body).toEqual(errorBody(405, 'method_not_allowed', 'method not allowed', res.headers['x-request-id']));
    });
  });
});
