// Several services in one process share nothing but the process: two gateways, two catalogs of different
// categories, auth and the registry, started by the host's own code on real stores, each with its own
// config, logger, metrics registry and store connections, talking HTTP over the loopback.
import { startServiceHost, type RunningHost } from '@mt/runtime';
import { freePort } from '@mt/stack';
import { deleteRedisPrefix, dropTestDatabase, testDbName, testMongoUrl, testRedisPrefix, testRedisUrl } from '@mt/testing';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { register } from 'prom-client';
import type { PlannedService } from './plan';
import { hosted } from './services';

const PROCESS_EVENTS = ['SIGTERM', 'SIGINT', 'uncaughtException', 'unhandledRejection', 'exit'] as const;
const listenerCounts = () => PROCESS_EVENTS.map((event) => process.listenerCount(event));

const keyDir = mkdtempSync(path.join(tmpdir(), 'mt-all-in-one-keys-'));
const redisPrefix = testRedisPrefix('all-in-one');
const databases = { auth: testDbName('aio_auth'), movies: testDbName('aio_movies'), books: testDbName('aio_books') };
const lines: Array<Record<string, unknown>> = [];
/** Every service's lines, as the host's shared writer would put them on stdout. */
const logDestination = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const text of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(text) as Record<string, unknown>);
    done();
  },
});

let host: RunningHost;
let urls: Record<string, { api: string; metrics: string }>;
let listenersBefore: number[];

async function plan(): Promise<PlannedService[]> {
  const names = ['registry-service', 'auth-service', 'catalog-movies', 'catalog-books', 'gateway-a', 'gateway-b'];
  const ports = Object.fromEntries(await Promise.all(names.map(async (name) => [name, { api: await freePort(), metrics: await freePort() }] as const)));
  urls = Object.fromEntries(
    names.map((name) => [name, { api: `http://127.0.0.1:${ports[name]?.api}`, metrics: `http://127.0.0.1:${ports[name]?.metrics}` }]),
  );
  const shared = {
    INTERNAL_SECRET: randomBytes(36).toString('base64url'),
    MONGO_URL: testMongoUrl(),
    REDIS_URL: testRedisUrl(),
    REDIS_KEY_PREFIX: redisPrefix,
    REGISTRY_URL: urls['registry-service']?.api,
    AUTH_URL: urls['auth-service']?.api,
    JWT_KEY_DIR: keyDir,
    // Debug: the start-up lines ('… listening') are debug.
    LOG_LEVEL: 'debug',
    HOST: '127.0.0.1',
  };
  const own = (name: string, env: NodeJS.ProcessEnv = {}) => ({
    ...shared,
    PORT: String(ports[name]?.api),
    METRICS_PORT: String(ports[name]?.metrics),
    ADVERTISED_URL: urls[name]?.api,
    ...env,
  });
  return [
    { name: 'registry-service', app: 'registry-service', env: own('registry-service') },
    { name: 'auth-service', app: 'auth-service', env: own('auth-service', { MONGO_DB_NAME: databases.auth }) },
    { name: 'catalog-movies', app: 'catalog-service', env: own('catalog-movies', { CATEGORY: 'movies', MONGO_DB_NAME: databases.movies }) },
    { name: 'catalog-books', app: 'catalog-service', env: own('catalog-books', { CATEGORY: 'books', MONGO_DB_NAME: databases.books }) },
    // The second gateway with another rate limit: each reads its own configuration.
    { name: 'gateway-a', app: 'gateway', env: own('gateway-a') },
    { name: 'gateway-b', app: 'gateway', env: own('gateway-b', { RATE_LIMIT_PER_MINUTE: '7' }) },
  ];
}

async function eventually<T>(fn: () => Promise<T>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await fn();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

const metricsOf = async (name: string) => (await fetch(`${urls[name]?.metrics}/metrics`)).text();
/** `http_requests_total` lines of a registry for one route template. */
const requestLines = (metrics: string, route: string) =>
  metrics.split('\n').filter((line) => line.startsWith('http_requests_total{') && line.includes(`route="${route}"`));

beforeAll(async () => {
  listenersBefore = listenerCounts();
  host = await startServiceHost((await plan()).map(hosted), { logDestination });
  await host.started;
  // Both categories routed by both gateways (they learn them from the hosted registry, over HTTP).
  for (const gateway of ['gateway-a', 'gateway-b']) {
    await eventually(async () => {
      const categories = (await (await fetch(`${urls[gateway]?.api}/api/v1/categories`)).json()) as Array<{ id: string }>;
      expect(categories.map((category) => category.id)).toEqual(['books', 'movies']);
    });
  }
}, 120_000);

afterAll(async () => {
  await host?.stop('test over');
  await deleteRedisPrefix(redisPrefix);
  await Promise.all(Object.values(databases).map((db) => dropTestDatabase(db).catch(() => undefined)));
  rmSync(keyDir, { recursive: true, force: true });
}, 60_000);

describe('services hosted in one process', () => {
  it('install no process handler and register nothing in the default Prometheus registry', () => {
    expect(listenerCounts()).toEqual(listenersBefore);
    expect(register.getMetricsAsArray()).toEqual([]);
  });

  it("count requests in their own metrics registry: one gateway's traffic is not in the other's", async () => {
    for (let i = 0; i < 3; i++) expect((await fetch(`${urls['gateway-a']?.api}/api/v1/movies`)).status).toBe(200);
    const [a, b] = await Promise.all([metricsOf('gateway-a'), metricsOf('gateway-b')]);
    expect(requestLines(a, '/api/v1/movies').join('\n')).toMatch(/status="200",service="gateway"} 3$/);
    expect(requestLines(b, '/api/v1/movies')).toEqual([]);
  });

  it('read their own configuration: the second gateway alone limits anonymous clients to 7 requests a minute', async () => {
    const statuses = async (gateway: string) => {
      const answers = [];
      for (let i = 0; i < 8; i++) answers.push((await fetch(`${urls[gateway]?.api}/api/v1/categories`)).status);
      return answers;
    };
    expect(await statuses('gateway-b')).toContain(429);
    expect(await statuses('gateway-a')).not.toContain(429);
  });

  it('keep each catalog to its own category, database and metrics', async () => {
    const gateway = urls['gateway-a']?.api ?? '';
    const suffix = randomBytes(4).toString('hex');
    const username = `aio_${suffix}`;
    const password = `correct horse ${suffix}`;
    const registered = await fetch(`${gateway}/api/v1/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, email: `${username}@example.com`, password }),
    });
    expect(registered.status).toBe(201);
    const login = await fetch(`${gateway}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password }),
    });
    const { access_token: jwt } = (await login.json()) as { access_token: string };
    const title = `Shared title ${suffix}`;
    const create = (category: string) =>
      fetch(`${gateway}/api/v1/${category}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${jwt}` },
        body: JSON.stringify({ title, year: 2001 }),
      });
    expect((await create('movies')).status).toBe(201);
    // The same title in the other category is not a duplicate: another catalog, another database.
    expect((await create('books')).status).toBe(201);

    const search = async (category: string) =>
      (await (await fetch(`${gateway}/api/v1/${category}?q=${encodeURIComponent(title)}`)).json()) as { data: Array<Record<string, unknown>> };
    const [movies, books] = await Promise.all([search('movies'), search('books')]);
    expect(movies.data).toHaveLength(1);
    expect(books.data).toHaveLength(1);
    expect(books.data[0]).toHaveProperty('authors');
    expect(movies.data[0]).not.toHaveProperty('authors');

    // A catalog answers for its own category only, and counts only its own requests.
    expect((await fetch(`${urls['catalog-movies']?.api}/api/v1/books`)).status).toBe(404);
    const [movieMetrics, bookMetrics] = await Promise.all([metricsOf('catalog-movies'), metricsOf('catalog-books')]);
    expect(requestLines(movieMetrics, '/api/v1/movies').length).toBeGreaterThan(0);
    expect(requestLines(movieMetrics, '/api/v1/books')).toEqual([]);
    expect(requestLines(bookMetrics, '/api/v1/movies')).toEqual([]);
  });

  it("stamp each log line with the service that wrote it, a catalog's with its category", () => {
    const started = lines.filter((line) => typeof line['msg'] === 'string' && (line['msg'] as string).includes('listening'));
    const writers = new Set(started.map((line) => `${String(line['service'])}${line['category'] ? `:${String(line['category'])}` : ''}`));
    expect(writers).toEqual(new Set(['registry-service', 'auth-service', 'catalog-service:movies', 'catalog-service:books', 'gateway']));
  });
});
