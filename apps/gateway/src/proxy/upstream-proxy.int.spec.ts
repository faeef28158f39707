import { signIdentity } from '@mt/identity';
import { closedPort } from '@mt/testing';
import { generatePat } from '@mt/tokens';
import request from 'supertest';
import { counterValue, startTestGateway, type TestGateway } from '../../test/gateway';
import { rawRequest } from '../../test/http-client';
import { createSigningKey, TEST_SECRET } from '../../test/keys';
import {
  startGarbageServer,
  startHttpServer,
  startOneRequestPerConnectionServer,
  startResettingServer,
  type RunningServer,
} from '../../test/servers';
import { StaticRouteTable } from '../../test/static-route-table';
import {
  activePat,
  startEchoUpstream,
  startFakeAuthService,
  type EchoBody,
  type EchoUpstream,
  type FakeAuthService,
} from '../../test/upstreams';

const PROXY_TIMEOUT_MS = 1000;

const expectErrorPayload = (body: unknown, status: number, code: string, requestId?: string) => {
  expect(body).toEqual({
    error: expect.any(String),
    status,
    code,
    timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    request_id: requestId ?? expect.any(String),
  });
};

describe('gateway proxying to real upstreams', () => {
  let auth: FakeAuthService;
  let movieA: EchoUpstream;
  let movieB: EchoUpstream;
  let resetting: RunningServer;
  let garbage: RunningServer;
  let routeTable: StaticRouteTable;
  let gateway: TestGateway;
  let gatewayServer: RunningServer;

  beforeAll(async () => {
    auth = await startFakeAuthService([createSigningKey('k1')]);
    [movieA, movieB, resetting, garbage] = await Promise.all([
      startEchoUpstream('movies-a'),
      startEchoUpstream('movies-b'),
      startResettingServer(),
      startGarbageServer(),
    ]);
    routeTable = new StaticRouteTable()
      .setInstances('movies', [
        { id: 'movies-a', url: movieA.url },
        { id: 'movies-b', url: movieB.url },
      ])
      .setInstances('resets', [{ id: 'r1', url: resetting.url }])
      .setInstances('garbage', [{ id: 'g1', url: garbage.url }])
      .setInstances('refused', [{ id: 'x1', url: `http://127.0.0.1:${await closedPort()}` }])
      .setInstances('empty', []);
    gateway = await startTestGateway({
      routeTable,
      authUrl: auth.url,
      env: { PROXY_TIMEOUT_MS: String(PROXY_TIMEOUT_MS), RATE_LIMIT_PER_MINUTE: '0' },
    });
    gatewayServer = await startHttpServer(gateway.app);
  });

  afterAll(async () => {
    await gatewayServer.close();
    await gateway.close();
    await Promise.all([auth, movieA, movieB, resetting, garbage].map((server) => server.close()));
  });

  describe('what reaches the upstream', () => {
    it('forwards a large UTF-8 body byte for byte, with the query and the headers unchanged', async () => {
      const text = JSON.stringify({ note: 'Amélie – 千と千尋の神隠し 🎬 \u0000 \\ "quoted"'.repeat(12_000) });
      const body = Buffer.from(text, 'utf8');
      expect(body.length).toBeGreaterThan(700_000);
      expect(body.length).toBeLessThan(1024 * 1024);
      const path = '/api/v1/auth/register?q=caf%C3%A9&tag=a&tag=b&empty=&plus=a+b&odd=%2F%3F%26';

      const res = await rawRequest(gatewayServer.url, {
        method: 'POST',
        path,
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'content-length': String(body.length),
          'x-request-id': 'client-chosen-id-1',
          'x-custom-header': 'custom value, with "quotes"',
          'accept-language': 'fr-CH, fr;q=0.9',
        },
        chunks: [body],
      });

      expect(res.status).toBe(200);
      expect(res.headers['x-request-id']).toBe('client-chosen-id-1');
      const echo = res.json() as EchoBody;
      expect(echo.url).toBe(path);
      expect(echo.method).toBe('POST');
      expect(echo.body_bytes).toBe(body.length);
      expect(Buffer.from(echo.body_base64, 'base64').equals(body)).toBe(true);
      expect(echo.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(echo.headers['content-length']).toBe(String(body.length));
      expect(echo.headers['x-custom-header']).toBe('custom value, with "quotes"');
      expect(echo.headers['accept-language']).toBe('fr-CH, fr;q=0.9');
      expect(echo.headers['x-request-id']).toBe('client-chosen-id-1');
      expect(echo.identity).toBeNull();
    });

    it('streams a chunked body (no Content-Length) intact', async () => {
      const chunks = [Buffer.from('{"title":"'), Buffer.from('Ünïcödé ✓ '.repeat(5000)), Buffer.from('"}')];
      const res = await rawRequest(gatewayServer.url, {
        method: 'POST',
        path: '/api/v1/auth/login',
        headers: { 'content-type': 'application/json' },
        chunks,
      });
      expect(res.status).toBe(200);
      const echo = res.json() as EchoBody;
      expect(Buffer.from(echo.body_base64, 'base64').equals(Buffer.concat(chunks))).toBe(true);
      expect(echo.headers['transfer-encoding']).toBe('chunked');
    });

    it('forwards the path byte for byte, without re-escaping', async () => {
      const path = "/api/v1/movies/abc'def?q=it's|[x]{y}^`z";
      const res = await rawRequest(gatewayServer.url, { path });
      expect(res.status).toBe(200);
      expect((res.json() as EchoBody).url).toBe(path);
    });

    it('forwards an absolute-form request target in origin form', async () => {
      const res = await rawRequest(gatewayServer.url, { path: 'http://somewhere.example/api/v1/movies/abc?x=1' });
      expect(res.status).toBe(200);
      expect((res.json() as EchoBody).url).toBe('/api/v1/movies/abc?x=1');
    });

    it('replaces client-sent identity headers and the internal secret with the signed identity of the caller', async () => {
      const pat = generatePat();
      auth.tokens.set(pat, activePat('user-42', ['list:read'], 'pat-42'));

      const res = await request(gateway.app)
        .get('/api/v1/movies/list?status=watching')
        .set('Authorization', `Bearer ${pat}`)
        .set('X-MT-User-Id', 'admin')
        .set('X-MT-Auth-Type', 'jwt')
        .set('X-MT-Scopes', 'account list:read list:write catalog:write profile:read')
        .set('X-MT-Token-Id', 'forged')
        .set('X-MT-Internal-Secret', TEST_SECRET);

      expect(res.status).toBe(200);
      const echo = res.body as EchoBody;
      expect(echo.identity).toEqual({ userId: 'user-42', authType: 'pat', scopes: ['list:read'], tokenId: 'pat-42' });
      expect(echo.headers['x-mt-user-id']).toBe('user-42');
      expect(echo.headers['x-mt-internal-secret']).toBeUndefined();
      // The credential stays at the gateway: services trust only the signed identity.
      expect(echo.headers['authorization']).toBeUndefined();
    });

    it('strips forged identity headers from anonymous requests to public endpoints', async () => {
      const res = await request(gateway.app)
        .get('/api/v1/movies')
        .set('X-MT-User-Id', 'admin')
        .set('X-MT-Auth-Type', 'pat')
        .set('X-MT-Scopes', 'account')
        .set('X-MT-Token-Id', 'forged')
        .set('X-MT-Identity-Ts', String(Date.now()))
        .set('X-MT-Identity-Sig', 'AAAA');
      expect(res.status).toBe(200);
      const echo = res.body as EchoBody;
      expect(echo.identity).toBeNull();
      expect(Object.keys(echo.headers).filter((name) => name.startsWith('x-mt-'))).toEqual([]);
    });

    it('sets X-Forwarded-For to the client the gateway saw, not to what the client claims', async () => {
      const res = await request(gateway.app).get('/api/v1/movies').set('X-Forwarded-For', '203.0.113.9');
      expect(res.status).toBe(200);
      expect((res.body as EchoBody).headers['x-forwarded-for']).toMatch(/127\.0\.0\.1$/);
    });

    it("drops the client's hop-by-hop headers, those its Connection header names, and its forwarding claims", async () => {
      const res = await request(gateway.app)
        .get('/api/v1/movies?x=1')
        .set('Connection', 'keep-alive, X-Hop-Secret, Content-Length')
        .set('X-Hop-Secret', 'for the gateway only')
        .set('Keep-Alive', 'timeout=5')
        .set('TE', 'trailers')
        .set('Forwarded', 'for=203.0.113.9')
        .set('X-Forwarded-Host', 'evil.example')
        .set('X-Forwarded-Port', '8443')
        .set('X-Forwarded-Proto', 'https')
        .set('Accept-Language', 'de');
      expect(res.status).toBe(200);
      const { headers } = res.body as EchoBody;
      for (const dropped of ['x-hop-secret', 'keep-alive', 'te', 'forwarded', 'x-forwarded-port']) {
        expect(headers[dropped]).toBeUndefined();
      }
      expect(headers['x-forwarded-proto']).toBe('http');
      // The Host the client sent the gateway (supertest's), not the one it claimed to have been forwarded from.
      expect(headers['x-forwarded-host']).toMatch(/^127\.0\.0\.1:\d+$/);
      expect(headers['accept-language']).toBe('de');
      expect(headers['x-request-id']).toBe(res.headers['x-request-id']);
    });
  });

  describe('a service reached directly', () => {
    it('refuses identity headers without a valid signature', async () => {
      const forged = await request(movieA.url)
        .get('/api/v1/movies/list')
        .set('X-MT-User-Id', 'admin')
        .set('X-MT-Auth-Type', 'jwt')
        .set('X-MT-Scopes', 'account')
        .set('X-MT-Token-Id', 't')
        .set('X-MT-Identity-Ts', String(Date.now()))
        .set('X-MT-Identity-Sig', 'not-a-signature');
      expect(forged.status).toBe(401);
      expectErrorPayload(forged.body, 401, 'unauthorized');

      const identity = { userId: 'admin', authType: 'jwt' as const, scopes: ['account' as const], tokenId: 't' };
      const wrongSecret = await request(movieA.url)
        .get('/api/v1/movies/list')
        .set('X-Request-Id', 'r-1')
        .set(signIdentity(identity, 'r-1', 'some-other-secret-of-at-least-32-chars'));
      expect(wrongSecret.status).toBe(401);

      const otherRequest = await request(movieA.url)
        .get('/api/v1/movies/list')
        .set('X-Request-Id', 'r-2')
        .set(signIdentity(identity, 'r-1', TEST_SECRET));
      expect(otherRequest.status).toBe(401);

      const signed = await request(movieA.url)
        .get('/api/v1/movies/list')
        .set('X-Request-Id', 'r-3')
        .set(signIdentity(identity, 'r-3', TEST_SECRET));
      expect(signed.status).toBe(200);
      expect((signed.body as EchoBody).identity).toEqual(identity);
    });
  });

  describe('upstream failures', () => {
    it('answers 503 when the upstream refuses the connection', async () => {
      const started = Date.now();
      const res = await request(gateway.app).get('/api/v1/refused/abc').set('X-Request-Id', 'refused-1');
      expect(res.status).toBe(503);
      expectErrorPayload(res.body, 503, 'service_unavailable', 'refused-1');
      expect(Date.now() - started).toBeLessThan(PROXY_TIMEOUT_MS);
      expect(await counterValue(gateway.metrics, 'gateway_upstream_errors_total', { upstream: 'refused', kind: 'refused' })).toBeGreaterThan(0);
    });

    it('answers 503 when the category has no live instance', async () => {
      const res = await request(gateway.app).get('/api/v1/empty');
      expect(res.status).toBe(503);
      expectErrorPayload(res.body, 503, 'service_unavailable');
      expect(res.body.error).toBe('no live instance of empty service');
    });

    it('answers 502 when the upstream resets the connection', async () => {
      const res = await request(gateway.app).get('/api/v1/resets/abc');
      expect(res.status).toBe(502);
      expectErrorPayload(res.body, 502, 'bad_gateway');
      const post = await request(gateway.app).post('/api/v1/resets').set('Authorization', 'Bearer x').send({});
      expect(post.status).toBe(401);
    });

    it('answers 502 when the upstream answers something that is not HTTP', async () => {
      const res = await request(gateway.app).get('/api/v1/garbage/abc');
      expect(res.status).toBe(502);
      expectErrorPayload(res.body, 502, 'bad_gateway');
      expect(res.body.error).toBe('garbage service sent an invalid response');
    });

    it('answers 504 when the upstream is too slow, after the proxy timeout', async () => {
      const started = Date.now();
      const res = await request(gateway.app).get('/api/v1/movies/slow?delay_ms=5000').set('X-Request-Id', 'slow-1');
      const elapsed = Date.now() - started;
      expect(res.status).toBe(504);
      expectErrorPayload(res.body, 504, 'gateway_timeout', 'slow-1');
      expect(elapsed).toBeGreaterThanOrEqual(PROXY_TIMEOUT_MS - 50);
      expect(elapsed).toBeLessThan(PROXY_TIMEOUT_MS + 2000);
    }, 10_000);
  });

  describe('instances', () => {
    it('spreads requests across the live instances of a category', async () => {
      const seen: string[] = [];
      for (let i = 0; i < 10; i += 1) {
        const res = await request(gateway.app).get('/api/v1/movies');
        expect(res.status).toBe(200);
        seen.push((res.body as EchoBody).instance);
      }
      expect(seen.filter((name) => name === 'movies-a')).toHaveLength(5);
      expect(seen.filter((name) => name === 'movies-b')).toHaveLength(5);
    });

    it('keeps GETs working when one instance dies (retried on the other)', async () => {
      const [first, second] = await Promise.all([startEchoUpstream('books-1'), startEchoUpstream('books-2')]);
      routeTable.setInstances('books', [
        { id: 'books-1', url: first.url },
        { id: 'books-2', url: second.url },
      ]);
      // Warm both: the gateway now holds keep-alive sockets to each instance.
      for (let i = 0; i < 4; i += 1) expect((await request(gatewayServer.url).get('/api/v1/books')).status).toBe(200);
      expect(first.requests()).toBeGreaterThan(0);

      await first.close(); // killed: listener gone, open sockets dropped; the route table still lists it

      const statuses: number[] = [];
      const instances = new Set<string>();
      for (let i = 0; i < 20; i += 1) {
        const res = await request(gatewayServer.url).get(`/api/v1/books?i=${i}`);
        statuses.push(res.status);
        instances.add((res.body as EchoBody).instance);
      }
      expect(statuses).toEqual(Array(20).fill(200));
      expect([...instances]).toEqual(['books-2']);
      // The dead instance was tried (connection refused) and the request sent again, not failed.
      expect(await counterValue(gateway.metrics, 'gateway_upstream_errors_total', { upstream: 'books', kind: 'refused_retried' })).toBeGreaterThan(0);
      expect(await counterValue(gateway.metrics, 'gateway_upstream_errors_total', { upstream: 'books', kind: 'refused' })).toBe(0);
      await second.close();
    });
    it('answers a GET from another instance when the first resets it before answering, but never retries a POST', async () => {
      const [dying, live] = await Promise.all([startResettingServer(), startEchoUpstream('shows-live')]);
      // The dying instance comes first in the rotation: every other request lands on it.
      routeTable.setInstances('shows', [
        { id: 'shows-dying', url: dying.url },
        { id: 'shows-live', url: live.url },
      ]);
      try {
        for (let i = 0; i < 6; i += 1) {
          const res = await request(gatewayServer.url).get(`/api/v1/shows?i=${i}`);
          expect(res.status).toBe(200);
          expect((res.body as EchoBody).instance).toBe('shows-live');
        }
        expect(await counterValue(gateway.metrics, 'gateway_upstream_errors_total', { upstream: 'shows', kind: 'reset_retried' })).toBe(3);

        const pat = generatePat();
        auth.tokens.set(pat, activePat('user-shows', ['catalog:write'], 'pat-shows'));
        const statuses: number[] = [];
        for (let i = 0; i < 2; i += 1) {
          const post = await request(gatewayServer.url).post('/api/v1/shows').set('Authorization', `Bearer ${pat}`).send({ title: 'x' });
          statuses.push(post.status);
        }
        // One of the two POSTs went to the dying instance: 502, not sent again (it may have taken effect).
        expect(statuses.sort()).toEqual([200, 502]);
      } finally {
        routeTable.removeService('shows');
        await Promise.all([dying.close(), live.close()]);
      }
    });
  });

  describe('stale keep-alive sockets', () => {
    it('sends a GET once more on a fresh connection when its reused socket was dead, but never a POST', async () => {
      const flaky = await startOneRequestPerConnectionServer();
      routeTable.setInstances('flaky', [{ id: 'f1', url: flaky.url }]);
      try {
        await request(gateway.app).get('/api/v1/flaky').expect(200, { ok: true });
        await request(gateway.app).get('/api/v1/flaky').expect(200, { ok: true }); // reused socket reset → retried
        expect(flaky.connections()).toBe(2);
        expect(await counterValue(gateway.metrics, 'gateway_upstream_errors_total', { upstream: 'flaky', kind: 'reset_retried' })).toBe(1);

        const pat = generatePat();
        auth.tokens.set(pat, activePat('user-flaky', ['catalog:write'], 'pat-flaky'));
        const post = await request(gateway.app).post('/api/v1/flaky').set('Authorization', `Bearer ${pat}`).send({ title: 'x' });
        expect(post.status).toBe(502);
        expectErrorPayload(post.body, 502, 'bad_gateway');
      } finally {
        routeTable.removeService('flaky');
        await flaky.close();
      }
    });
  });

  describe('routing', () => {
    it('answers 404 for an unknown category', async () => {
      const res = await request(gateway.app).get('/api/v1/podcasts/abc');
      expect(res.status).toBe(404);
      expectErrorPayload(res.body, 404, 'not_found');
      expect(res.body.error).toBe('no route for /api/v1/podcasts/abc');
    });

    it.each([
      '/internal/jwks',
      '/api/v1/auth/../../internal/jwks',
      '/api/v1/auth/%2e%2e/%2E%2E/internal/jwks',
      '/api/v1/movies/..%2f..%2finternal/jwks',
      '/api/v1//internal/jwks',
      '/api/v1/auth/internal/jwks',
    ])('never routes %s to an internal endpoint', async (path) => {
      const before = { ...auth.calls };
      const res = await rawRequest(gatewayServer.url, { path });
      expect(res.status).toBe(404);
      expectErrorPayload(res.json(), 404, 'not_found');
      expect(auth.calls).toEqual(before);
    });
  });
});
