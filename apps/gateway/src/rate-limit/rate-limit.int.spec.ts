import { generatePat } from '@mt/tokens';
import request from 'supertest';
import { startTestGateway, type TestGateway } from '../../test/gateway';
import { createSigningKey } from '../../test/keys';
import { StaticRouteTable } from '../../test/static-route-table';
import { activePat, startEchoUpstream, startFakeAuthService, type EchoUpstream, type FakeAuthService } from '../../test/upstreams';
import { RATE_LIMIT_WINDOW_MS } from './rate-limiter';

/** Fixed windows: start a burst early in a window so it cannot straddle two. */
async function atWindowStart(): Promise<void> {
  const left = RATE_LIMIT_WINDOW_MS - (Date.now() % RATE_LIMIT_WINDOW_MS);
  if (left < 20_000) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

describe('gateway rate limit', () => {
  let auth: FakeAuthService;
  let movies: EchoUpstream;
  let routeTable: StaticRouteTable;
  let gateway: TestGateway;

  beforeAll(async () => {
    [auth, movies] = await Promise.all([startFakeAuthService([createSigningKey('k1')]), startEchoUpstream('movies-1')]);
    routeTable = new StaticRouteTable().setInstances('movies', [{ id: 'm1', url: movies.url }]);
    gateway = await startTestGateway({ routeTable, authUrl: auth.url, env: { RATE_LIMIT_PER_MINUTE: '3' } });
  });

  afterAll(async () => {
    await gateway.close();
    await Promise.all([auth.close(), movies.close()]);
  });

  it('sends RateLimit headers on every API response and answers 429 with Retry-After over the limit', async () => {
    await atWindowStart();
    const remaining: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const res = await request(gateway.app).get('/api/v1/movies');
      expect(res.status).toBe(200);
      expect(res.headers['ratelimit-limit']).toBe('3');
      const reset = Number(res.headers['ratelimit-reset']);
      expect(reset).toBeGreaterThanOrEqual(1);
      expect(reset).toBeLessThanOrEqual(60);
      remaining.push(res.headers['ratelimit-remaining'] as string);
    }
    expect(remaining).toEqual(['2', '1', '0']);

    const upstreamBefore = movies.requests();
    const limited = await request(gateway.app).get('/api/v1/movies');
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({
      error: 'too many requests',
      status: 429,
      code: 'rate_limited',
      timestamp: expect.any(String),
      request_id: limited.headers['x-request-id'],
    });
    expect(limited.headers['retry-after']).toBe(limited.headers['ratelimit-reset']);
    expect(limited.headers['ratelimit-remaining']).toBe('0');
    expect(movies.requests()).toBe(upstreamBefore);

    // Errors count and carry the headers too (a 404 from the same client is limited as well).
    const notFound = await request(gateway.app).get('/api/v1/unknown-category');
    expect(notFound.status).toBe(429);
  });

  it('counts per user when authenticated, independently of the client IP and of other users', async () => {
    await atWindowStart();
    const patA = generatePat();
    const patB = generatePat();
    auth.tokens.set(patA, activePat('user-a', ['list:read'], 'pat-a'));
    auth.tokens.set(patB, activePat('user-b', ['list:read'], 'pat-b'));
    const statusesA: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      statusesA.push((await request(gateway.app).get('/api/v1/movies/list').set('Authorization', `Bearer ${patA}`)).status);
    }
    expect(statusesA).toEqual([200, 200, 200, 429]);
    const b = await request(gateway.app).get('/api/v1/movies/list').set('Authorization', `Bearer ${patB}`);
    expect(b.status).toBe(200);
    expect(b.headers['ratelimit-remaining']).toBe('2');
  });

  it('never limits the probes', async () => {
    for (let i = 0; i < 6; i += 1) {
      const res = await request(gateway.app).get('/livez');
      expect(res.status).toBe(200);
      expect(res.headers['ratelimit-limit']).toBeUndefined();
    }
  });

  it('keeps each counter in Redis under the configured prefix, expiring with its window', async () => {
    await request(gateway.app).get('/api/v1/movies');
    const keys = await gateway.redis.keys(`${gateway.prefix}ratelimit:*`);
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) {
      const ttl = await gateway.redis.pttl(key);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(RATE_LIMIT_WINDOW_MS + 5_000);
    }
  });
});

describe('gateway rate limit under concurrent requests', () => {
  const LIMIT = 20;
  let auth: FakeAuthService;
  let movies: EchoUpstream;
  let gateway: TestGateway;

  beforeAll(async () => {
    [auth, movies] = await Promise.all([startFakeAuthService([createSigningKey('k1')]), startEchoUpstream('movies-1')]);
    const routeTable = new StaticRouteTable().setInstances('movies', [{ id: 'm1', url: movies.url }]);
    gateway = await startTestGateway({ routeTable, authUrl: auth.url, env: { RATE_LIMIT_PER_MINUTE: String(LIMIT) } });
  });

  afterAll(async () => {
    await gateway.close();
    await Promise.all([auth.close(), movies.close()]);
  });

  // The local hits go to Redis every 100 ms. Each trial keeps six clients of one user asking, one request after
  // another, for a few syncs' time past the limit: a request answered while a sync is on its way must still
  // count the hits that sync carries.
  it('admits exactly the limit per window while its counts are being synced to Redis, over many trials', async () => {
    for (let trial = 0; trial < 10; trial += 1) {
      await atWindowStart();
      const pat = generatePat();
      auth.tokens.set(pat, activePat(`racer-${trial}`, ['list:read'], `pat-${trial}`));
      const client = async () => {
        const statuses: number[] = [];
        for (let i = 0; i < 50; i += 1) {
          statuses.push((await request(gateway.app).get('/api/v1/movies/list').set('Authorization', `Bearer ${pat}`)).status);
        }
        return statuses;
      };
      const statuses = (await Promise.all(Array.from({ length: 6 }, client))).flat();
      expect({ trial, admitted: statuses.filter((status) => status === 200).length }).toEqual({ trial, admitted: LIMIT });
      expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
    }
  });
});

describe('gateway rate limit without Redis', () => {
  it('fails open: requests go through (without RateLimit headers) while Redis is down', async () => {
    const movies = await startEchoUpstream('movies-1');
    const routeTable = new StaticRouteTable().setInstances('movies', [{ id: 'm1', url: movies.url }]);
    const gateway = await startTestGateway({ routeTable, authUrl: movies.url, redisDown: true, env: { RATE_LIMIT_PER_MINUTE: '2' } });
    try {
      for (let i = 0; i < 5; i += 1) {
        const res = await request(gateway.app).get('/api/v1/movies');
        expect(res.status).toBe(200);
        expect(res.headers['ratelimit-limit']).toBeUndefined();
      }
    } finally {
      await gateway.close();
      await movies.close();
    }
  });

  it('is off with RATE_LIMIT_PER_MINUTE=0', async () => {
    const movies = await startEchoUpstream('movies-1');
    const routeTable = new StaticRouteTable().setInstances('movies', [{ id: 'm1', url: movies.url }]);
    const gateway = await startTestGateway({ routeTable, authUrl: movies.url, env: { RATE_LIMIT_PER_MINUTE: '0' } });
    try {
      const res = await request(gateway.app).get('/api/v1/movies');
      expect(res.status).toBe(200);
      expect(res.headers['ratelimit-limit']).toBeUndefined();
      expect(await gateway.redis.keys(`${gateway.prefix}ratelimit:*`)).toEqual([]);
    } finally {
      await gateway.close();
      await movies.close();
    }
  });
});
