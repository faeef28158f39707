import { INTERNAL_PATHS } from '@mt/contracts';
import { INTERNAL_SECRET_HEADER } from '@mt/identity';
import { captureLogger, closedPort, deleteRedisPrefix, silentLogger, testRedisPrefix, testRedisUrl } from '@mt/testing';
import { categoryRecord, sampleRegistration } from '@mt/registry-testing';
import request from 'supertest';
import { startRegistry, TEST_SECRET, type RunningRegistry } from '../../test/registry-harness';
import { RegistryRouteTable, type RouteTableOptions } from '@mt/registry-client';
import type { RouteTable } from '@mt/registry-client';

const prefix = testRedisPrefix('routetable');
const live = (table: RouteTable) => table.services().filter((s) => s.instances.length > 0).map((s) => s.service);
const TTL_MS = 1500;
const SWEEP_MS = 200;
/** Long enough that only a change notification can explain a quick update. */
const NO_PERIODIC_REFRESH = 60_000;

async function waitUntil(check: () => boolean, timeoutMs: number): Promise<number> {
  const startedAt = Date.now();
  while (!check()) {
    if (Date.now() - startedAt > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
  return Date.now() - startedAt;
}

describe('route table (gateway side) against a real registry and Redis', () => {
  let registry: RunningRegistry;
  const tables: RouteTable[] = [];
  const table = (overrides: Partial<RouteTableOptions> = {}) => {
    const created = new RegistryRouteTable({
      registryUrl: registry.url,
      internalSecret: TEST_SECRET,
      redisUrl: testRedisUrl(),
      redisKeyPrefix: prefix,
      logger: silentLogger(),
      refreshIntervalMs: NO_PERIODIC_REFRESH,
      ...overrides,
    });
    tables.push(created);
    return created;
  };
  const register = (id: string, category: string, baseUrl = 'http://127.0.0.1:4001') =>
    request(registry.app).put(INTERNAL_PATHS.registryInstance(id)).set(INTERNAL_SECRET_HEADER, TEST_SECRET).send(sampleRegistration(category, baseUrl));
  const deregister = (id: string) => request(registry.app).delete(INTERNAL_PATHS.registryInstance(id)).set(INTERNAL_SECRET_HEADER, TEST_SECRET);

  beforeAll(async () => {
    registry = await startRegistry({ prefix, ttlMs: TTL_MS, sweepIntervalMs: SWEEP_MS });
  });
  beforeEach(() => deleteRedisPrefix(prefix));
  afterEach(async () => {
    await Promise.all(tables.splice(0).map((t) => t.stop()));
  });
  afterAll(async () => {
    await registry.stop();
    await deleteRedisPrefix(prefix);
  });

  it('loads the live table on start', async () => {
    await register('movies-1', 'movies').expect(201);
    await register('books-1', 'books').expect(201);
    const routes = table();
    await routes.start();
    expect(routes.loaded()).toBe(true);
    expect(routes.categories()).toEqual([categoryRecord('books'), categoryRecord('movies')]);
    expect(live(routes)).toEqual(['books', 'movies']);
    expect(routes.instances('movies')).toEqual([
      { instance_id: 'movies-1', base_url: 'http://127.0.0.1:4001', version: '1.0.0', manifest_digest: sampleRegistration('movies', 'x').manifest.digest },
    ]);
    expect(routes.services().map((s) => [s.service, s.manifest.routes.length])).toEqual([
      ['books', 2],
      ['movies', 2],
    ]);
    expect(routes.openApiFragments().map((f) => [f.service, Object.keys(f.fragment.paths)])).toEqual([
      ['books', ['/api/v1/books/{id}', '/api/v1/books/list']],
      ['movies', ['/api/v1/movies/{id}', '/api/v1/movies/list']],
    ]);
  });

  it('follows a registration and a deregistration within 2 s, through change notifications', async () => {
    const routes = table({ emptyConfirmMs: 0 });
    await routes.start();
    await new Promise((r) => setTimeout(r, 200)); // the subscription is in place
    const versionBefore = routes.version();
    await register('tv-1', 'tvshows').expect(201);
    expect(await waitUntil(() => live(routes).includes('tvshows'), 2000)).toBeLessThan(2000);
    expect(routes.version()).toBeGreaterThan(versionBefore);
    await deregister('tv-1').expect(200);
    expect(await waitUntil(() => !live(routes).includes('tvshows'), 2000)).toBeLessThan(2000);
  });

  it('follows an expiry within 2 s of the registry removing the instance', async () => {
    const routes = table({ emptyConfirmMs: 0 });
    await register('movies-silent', 'movies').expect(201);
    await routes.start();
    expect(live(routes).includes('movies')).toBe(true);
    const elapsed = await waitUntil(() => !live(routes).includes('movies'), TTL_MS + SWEEP_MS + 2000);
    expect(elapsed).toBeLessThan(TTL_MS + SWEEP_MS + 2000);
    expect(routes.categories()).toEqual([]);
  });

  it('spreads picks round robin, honouring exclusions', async () => {
    await register('movies-a', 'movies', 'http://127.0.0.1:4001').expect(201);
    await register('movies-b', 'movies', 'http://127.0.0.1:4002').expect(201);
    await register('movies-c', 'movies', 'http://127.0.0.1:4003').expect(201);
    const routes = table();
    await routes.start();
    const picks = Array.from({ length: 6 }, () => routes.pickInstance('movies')!.instance_id);
    expect(picks).toEqual(['movies-a', 'movies-b', 'movies-c', 'movies-a', 'movies-b', 'movies-c']);
    expect(routes.pickInstance('movies', new Set(['movies-a', 'movies-b']))!.instance_id).toBe('movies-c');
    expect(routes.pickInstance('movies', new Set(['movies-a', 'movies-b', 'movies-c']))).toBeUndefined();
    expect(routes.pickInstance('books')).toBeUndefined();
  });

  it('keeps the last good table while the registry is stopped, and recovers when it is back', async () => {
    const { logger, lines } = captureLogger();
    const own = await startRegistry({ prefix, ttlMs: 60_000 });
    await request(own.app).put(INTERNAL_PATHS.registryInstance('movies-1')).set(INTERNAL_SECRET_HEADER, TEST_SECRET)
      .send(sampleRegistration('movies', 'http://127.0.0.1:4001')).expect(201);
    const routes = table({ registryUrl: own.url, logger });
    await routes.start();
    const version = routes.version();
    await own.stop();

    await expect(routes.refresh()).resolves.toBe(false);
    expect(routes.categories()).toEqual([categoryRecord('movies')]);
    expect(routes.pickInstance('movies')!.instance_id).toBe('movies-1');
    expect(routes.version()).toBe(version);
    expect(lines().filter((line) => line.includes('keeping the last good route table'))).toHaveLength(1);

    const back = await startRegistry({ prefix, ttlMs: 60_000, port: own.port });
    try {
      await request(back.app).put(INTERNAL_PATHS.registryInstance('books-1')).set(INTERNAL_SECRET_HEADER, TEST_SECRET)
        .send(sampleRegistration('books', 'http://127.0.0.1:4002')).expect(201);
      await expect(routes.refresh()).resolves.toBe(true);
      expect(routes.categories().map((c) => c.id)).toEqual(['books', 'movies']);
    } finally {
      await back.stop();
    }
  });

  it('starts with an empty table when the registry is down, without throwing, and says it is not loaded', async () => {
    const routes = table({ registryUrl: `http://127.0.0.1:${await closedPort()}` });
    await expect(routes.start()).resolves.toBeUndefined();
    expect(routes.categories()).toEqual([]);
    expect(routes.loaded()).toBe(false);
    expect(routes.version()).toBe(0);
  });

  it('logs a registry not yet listening at start-up at debug only, and its arrival without an INFO line', async () => {
    const { logger, lines } = captureLogger();
    const port = await closedPort();
    const routes = table({ registryUrl: `http://127.0.0.1:${port}`, logger, startupGraceMs: 60_000 });
    await routes.start();
    const late = await startRegistry({ prefix, ttlMs: 60_000, port });
    try {
      await expect(routes.refresh()).resolves.toBe(true);
      expect(lines().filter((line) => /"level":(30|40)/.test(line))).toEqual([]);
    } finally {
      await late.stop();
    }
  });

  it('warns once when the registry stays unreachable past the start-up grace, and says when it is back', async () => {
    const { logger, lines } = captureLogger();
    const port = await closedPort();
    const routes = table({ registryUrl: `http://127.0.0.1:${port}`, logger, startupGraceMs: 0 });
    await routes.start();
    await routes.refresh();
    const late = await startRegistry({ prefix, ttlMs: 60_000, port });
    try {
      await expect(routes.refresh()).resolves.toBe(true);
      expect(lines().filter((line) => line.includes('keeping the last good route table'))).toHaveLength(1);
      expect(lines().filter((line) => line.includes('registry reachable again'))).toHaveLength(1);
    } finally {
      await late.stop();
    }
  });

  it('confirms a table without any live instance before taking it from the registry', async () => {
    await register('movies-1', 'movies').expect(201);
    const routes = table({ emptyConfirmMs: 1500 });
    await routes.start();
    await deregister('movies-1').expect(200);
    await expect(routes.refresh()).resolves.toBe(true);
    expect(live(routes)).toEqual(['movies']);
    // Still empty after the confirmation delay: now it is believed.
    expect(await waitUntil(() => live(routes).length === 0, 4000)).toBeGreaterThanOrEqual(1000);
  });

  it('still follows changes by periodic refresh when notifications cannot arrive', async () => {
    const routes = table({ redisUrl: `redis://127.0.0.1:${await closedPort()}`, refreshIntervalMs: 300 });
    await routes.start();
    await register('books-1', 'books').expect(201);
    expect(await waitUntil(() => live(routes).includes('books'), 1500)).toBeLessThan(1500);
  });

  it('keeps its version when a refresh finds the same table', async () => {
    await register('movies-1', 'movies').expect(201);
    const routes = table();
    await routes.start();
    const version = routes.version();
    await expect(routes.refresh()).resolves.toBe(true);
    expect(routes.version()).toBe(version);
  });

  it('answers a read of an unchanged table with 304 and no body, and a changed one in full with a new ETag', async () => {
    await register('movies-1', 'movies').expect(201);
    const read = (etag?: string) => {
      const call = request(registry.app).get(INTERNAL_PATHS.registryRoutes).set(INTERNAL_SECRET_HEADER, TEST_SECRET);
      return etag ? call.set('If-None-Match', etag) : call;
    };
    const first = await read().expect(200);
    const etag = first.headers['etag'] as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const unchanged = await read(etag).expect(304);
    expect(unchanged.text ?? '').toBe('');
    await register('books-1', 'books').expect(201);
    const changed = await read(etag).expect(200);
    expect(changed.headers['etag']).not.toBe(etag);
    expect(changed.body.services.map((s: { service: string }) => s.service)).toEqual(expect.arrayContaining(['books', 'movies']));
  });

  it('follows a change made after refreshes that found the table unchanged', async () => {
    await register('movies-1', 'movies').expect(201);
    const routes = table();
    await routes.start();
    const version = routes.version();
    await expect(routes.refresh()).resolves.toBe(true);
    await expect(routes.refresh()).resolves.toBe(true);
    expect(routes.version()).toBe(version);
    await register('books-1', 'books').expect(201);
    await expect(routes.refresh()).resolves.toBe(true);
    expect(live(routes)).toEqual(expect.arrayContaining(['books', 'movies']));
    expect(routes.version()).toBe(version + 1);
  });
});
