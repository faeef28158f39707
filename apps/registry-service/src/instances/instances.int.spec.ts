import { INTERNAL_PATHS, redisKeys, type RouteTableSnapshot } from '@mt/contracts';
import { INTERNAL_SECRET_HEADER } from '@mt/identity';
import { closeRedis, createRedis, waitForRedis, type Redis } from '@mt/stores';
import { deleteRedisPrefix, silentLogger, testRedisPrefix, testRedisUrl } from '@mt/testing';
import { categoryRecord, sampleRegistration } from '@mt/registry-testing';
import request from 'supertest';
import { startRegistry, TEST_SECRET, type RunningRegistry } from '../../test/registry-harness';

const prefix = testRedisPrefix('registry');
const keys = redisKeys(prefix);
const TTL_MS = 1500;
const SWEEP_MS = 200;

describe('registry internal API (real Redis)', () => {
  let registry: RunningRegistry;
  let redis: Redis;
  let subscriber: Redis;
  const messages: Array<{ type: string; instance_id?: string; instance_ids?: string[] }> = [];

  const put = (id: string, body: unknown) =>
    request(registry.app).put(INTERNAL_PATHS.registryInstance(id)).set(INTERNAL_SECRET_HEADER, TEST_SECRET).send(body as object);
  const beat = (id: string) => request(registry.app).post(INTERNAL_PATHS.registryHeartbeat(id)).set(INTERNAL_SECRET_HEADER, TEST_SECRET);
  const remove = (id: string) => request(registry.app).delete(INTERNAL_PATHS.registryInstance(id)).set(INTERNAL_SECRET_HEADER, TEST_SECRET);
  const routes = async (): Promise<RouteTableSnapshot> =>
    (await request(registry.app).get(INTERNAL_PATHS.registryRoutes).set(INTERNAL_SECRET_HEADER, TEST_SECRET).expect(200)).body;
  const liveIds = async () => (await routes()).services.flatMap((c) => c.instances.map((i) => i.instance_id));
  const settle = () => new Promise((r) => setTimeout(r, 100));

  beforeAll(async () => {
    registry = await startRegistry({ prefix, ttlMs: TTL_MS, sweepIntervalMs: SWEEP_MS });
    redis = createRedis({ url: testRedisUrl(), logger: silentLogger(), name: 'test' });
    subscriber = createRedis({ url: testRedisUrl(), logger: silentLogger(), name: 'test-sub', blocking: true });
    await Promise.all([waitForRedis(redis), waitForRedis(subscriber)]);
    await subscriber.subscribe(keys.registryChanges());
    subscriber.on('message', (_channel, message: string) => messages.push(JSON.parse(message)));
  });
  beforeEach(async () => {
    await deleteRedisPrefix(prefix);
    messages.length = 0;
  });
  afterAll(async () => {
    await registry.stop();
    await Promise.all([closeRedis(redis), closeRedis(subscriber)]);
    await deleteRedisPrefix(prefix);
  });

  describe('registration', () => {
    it('creates with 201, refreshes with 200, and publishes a change only when something changed', async () => {
      const body = sampleRegistration('movies', 'http://127.0.0.1:4001');
      await put('movies-1', body).expect(201, { instance_id: 'movies-1', ttl_ms: TTL_MS });
      await put('movies-1', body).expect(200, { instance_id: 'movies-1', ttl_ms: TTL_MS });
      await settle();
      expect(messages).toEqual([{ type: 'registered', instance_id: 'movies-1' }]);

      await put('movies-1', { ...body, version: '1.1.0' }).expect(200);
      await settle();
      expect(messages).toHaveLength(2);
      expect((await routes()).services[0]!.instances).toEqual([{ instance_id: 'movies-1', base_url: 'http://127.0.0.1:4001', version: '1.1.0', manifest_digest: body.manifest.digest }]);
    });

    it('serves live services sorted by id with sorted instances, the manifest and the fragment', async () => {
      await put('tv-1', sampleRegistration('tvshows', 'http://127.0.0.1:4003')).expect(201);
      await put('movies-b', sampleRegistration('movies', 'http://127.0.0.1:4002')).expect(201);
      await put('movies-a', sampleRegistration('movies', 'http://127.0.0.1:4001')).expect(201);
      await put('books-1', sampleRegistration('books', 'http://127.0.0.1:4004')).expect(201);
      const table = await routes();
      expect(table.services.map((c) => c.category)).toEqual([categoryRecord('books'), categoryRecord('movies'), categoryRecord('tvshows')]);
      expect(table.services[1]!.instances.map((i) => i.instance_id)).toEqual(['movies-a', 'movies-b']);
      expect(Object.keys(table.services[1]!.openapi.paths)).toEqual(['/api/v1/movies/{id}', '/api/v1/movies/list']);
      expect(table.services[1]!.manifest.routes.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/v1/movies/list', 'GET /api/v1/movies/{id}']);
      expect(table.services[1]!.manifest_mismatch).toBe(false);
    });

    it('lets the most recently registered instance speak for its category', async () => {
      await put('movies-old', sampleRegistration('movies', 'http://127.0.0.1:4001', '1.0.0')).expect(201);
      await new Promise((r) => setTimeout(r, 5));
      const newer = sampleRegistration('movies', 'http://127.0.0.1:4002', '2.0.0');
      newer.category!.description = 'Films, new description';
      await put('movies-new', newer).expect(201);
      const [movies] = (await routes()).services;
      expect(movies!.category!.description).toBe('Films, new description');
      expect(movies!.instances.map((i) => i.version)).toEqual(['2.0.0', '1.0.0']);
    });

    it.each([
      ['a missing body', undefined, [{ path: 'service', message: 'is required' }, { path: 'manifest', message: 'is required' }]],
      ['an unknown field', { ...sampleRegistration('movies', 'http://x:1'), extra: 1 }, [{ path: 'extra', message: 'unknown field' }]],
      ['an unknown category field', { ...sampleRegistration('movies', 'http://x:1'), category: { ...categoryRecord('movies'), colour: 'red' } }, [{ path: 'category.colour', message: 'unknown field' }]],
      ['a base URL that is not http(s)', sampleRegistration('movies', 'ftp://x:1'), [{ path: 'base_url', message: expect.any(String) }]],
      ['a name other than the id', { ...sampleRegistration('movies', 'http://x:1'), category: { ...categoryRecord('movies'), name: 'Movies' } }, [{ path: 'category.name', message: 'must equal category.id' }]],
      ['a wrong endpoint', { ...sampleRegistration('movies', 'http://x:1'), category: { ...categoryRecord('movies'), endpoint: '/movies' } }, [{ path: 'category.endpoint', message: 'must be /api/v1/movies' }]],
      ['a reserved service id', sampleRegistration('docs', 'http://x:1'), [{ path: 'service', message: "'docs' is reserved by the gateway" }]],
      ['a category other than the service', { ...sampleRegistration('movies', 'http://x:1'), category: categoryRecord('books') }, [{ path: 'category.id', message: 'must equal service' }]],
      ['a route outside the service', { ...sampleRegistration('movies', 'http://x:1'), manifest: sampleRegistration('books', 'http://x:1').manifest }, [{ path: 'manifest.routes.0.path', message: 'must be under /api/v1/movies' }]],
      ['a component section that is not an object', { ...sampleRegistration('movies', 'http://x:1'), openapi: { paths: {}, components: { schemas: 'none' } } }, [{ path: 'openapi.components.schemas', message: expect.any(String) }]],
      ['paths outside the category', { ...sampleRegistration('movies', 'http://x:1'), openapi: { paths: { '/api/v1/auth/login': {} }, components: {} } }, [{ path: 'openapi.paths./api/v1/auth/login', message: 'must be under /api/v1/movies' }]],
    ])('rejects %s with 400 and stores nothing', async (_name, body, details) => {
      const res = await put('movies-1', body).expect(400);
      expect(res.body).toMatchObject({ status: 400, code: 'validation_failed', error: 'request body is invalid' });
      expect(res.body.details).toEqual(expect.arrayContaining(details));
      expect(await redis.exists(keys.registryInstances(), keys.registryInstance('movies-1'))).toBe(0);
    });

    it('rejects a malformed instance id with 400', async () => {
      const res = await put('-bad id', sampleRegistration('movies', 'http://x:1')).expect(400);
      expect(res.body).toMatchObject({ code: 'validation_failed', details: [{ path: 'instance_id', message: expect.any(String) }] });
    });

    it('rejects malformed JSON with 400 and a non-JSON body with 415', async () => {
      const malformed = await put('movies-1', undefined).set('content-type', 'application/json').send('{"category":');
      expect(malformed.status).toBe(400);
      expect(malformed.body).toMatchObject({ code: 'validation_failed', error: 'malformed JSON body' });
      const text = await put('movies-1', undefined).set('content-type', 'text/plain').send('hello');
      expect(text.status).toBe(415);
      expect(text.body).toMatchObject({ code: 'unsupported_media_type', status: 415 });
    });
  });

  describe('heartbeat and deregistration', () => {
    it('answers 200 to a beat of a live instance and 404 to an unknown one', async () => {
      await put('movies-1', sampleRegistration('movies', 'http://127.0.0.1:4001')).expect(201);
      await beat('movies-1').expect(200, { instance_id: 'movies-1', ttl_ms: TTL_MS });
      const res = await beat('movies-unknown').expect(404);
      expect(res.body).toMatchObject({ code: 'not_found', error: 'unknown or expired instance; register again' });
    });

    it('rejects a heartbeat with a body field', async () => {
      await put('movies-1', sampleRegistration('movies', 'http://127.0.0.1:4001')).expect(201);
      const res = await beat('movies-1').send({ status: 'up' }).expect(400);
      expect(res.body.details).toEqual([{ path: 'status', message: 'unknown field' }]);
    });

    it('keeps a beating instance live past the TTL', async () => {
      await put('movies-1', sampleRegistration('movies', 'http://127.0.0.1:4001')).expect(201);
      for (let i = 0; i < 5; i++) {
        await new Promise((r) => setTimeout(r, TTL_MS / 3));
        await beat('movies-1').expect(200);
      }
      expect(await liveIds()).toEqual(['movies-1']);
    });

    it('deregisters (publishing the change), then answers 404', async () => {
      await put('movies-1', sampleRegistration('movies', 'http://127.0.0.1:4001')).expect(201);
      await remove('movies-1').expect(200, { message: 'instance deregistered' });
      expect(await liveIds()).toEqual([]);
      expect(await redis.exists(keys.registryInstance('movies-1'))).toBe(0);
      const res = await remove('movies-1').expect(404);
      expect(res.body).toMatchObject({ code: 'not_found', error: 'unknown instance' });
      await settle();
      expect(messages.map((m) => m.type)).toEqual(['registered', 'deregistered']);
    });
  });

  describe('expiry', () => {
    it('drops an instance that stops beating within TTL plus one sweep, removes its keys and publishes', async () => {
      // The registry stamps the registration somewhere between these two instants.
      const registrationSent = Date.now();
      await put('movies-silent', sampleRegistration('movies', 'http://127.0.0.1:4001')).expect(201);
      const registeredAt = Date.now();
      await put('books-1', sampleRegistration('books', 'http://127.0.0.1:4004')).expect(201);
      const beating = setInterval(() => void beat('books-1').then(() => undefined), TTL_MS / 3);
      try {
        while ((await liveIds()).includes('movies-silent')) await new Promise((r) => setTimeout(r, 50));
        expect(Date.now() - registrationSent).toBeGreaterThanOrEqual(TTL_MS - 50);
        // The sweeper removes the keys and announces it within one sweep interval.
        while (!messages.some((m) => m.type === 'expired')) await new Promise((r) => setTimeout(r, 20));
        expect(Date.now() - registeredAt).toBeLessThan(TTL_MS + SWEEP_MS + 300);
      } finally {
        clearInterval(beating);
      }
      expect(messages.find((m) => m.type === 'expired')).toEqual({ type: 'expired', instance_ids: ['movies-silent'] });
      expect(await redis.exists(keys.registryInstance('movies-silent'))).toBe(0);
      expect(await redis.zscore(keys.registryInstances(), 'movies-silent')).toBeNull();
      expect(await liveIds()).toEqual(['books-1']);
      await beat('movies-silent').expect(404);
    });
  });

  describe('protocol', () => {
    it.each([
      ['without the internal secret', undefined],
      ['with a wrong internal secret', 'w'.repeat(40)],
    ])('rejects every internal endpoint %s with 401', async (_name, secret) => {
      const withSecret = (test: request.Test) => (secret ? test.set(INTERNAL_SECRET_HEADER, secret) : test);
      for (const test of [
        request(registry.app).get(INTERNAL_PATHS.registryRoutes),
        request(registry.app).put(INTERNAL_PATHS.registryInstance('movies-1')).send(sampleRegistration('movies', 'http://x:1')),
        request(registry.app).post(INTERNAL_PATHS.registryHeartbeat('movies-1')),
        request(registry.app).delete(INTERNAL_PATHS.registryInstance('movies-1')),
      ]) {
        const res = await withSecret(test).expect(401);
        expect(res.body).toMatchObject({ status: 401, code: 'unauthorized', error: 'internal endpoint' });
      }
      expect(await redis.exists(keys.registryInstances())).toBe(0);
    });

    it('answers 405 with Allow for a wrong method and 404 for an unknown path', async () => {
      const routesPost = await request(registry.app).post(INTERNAL_PATHS.registryRoutes).set(INTERNAL_SECRET_HEADER, TEST_SECRET).expect(405);
      expect(routesPost.headers['allow']).toBe('GET, HEAD');
      expect(routesPost.body).toMatchObject({ code: 'method_not_allowed', status: 405 });
      const instanceGet = await request(registry.app).get(INTERNAL_PATHS.registryInstance('m-1')).set(INTERNAL_SECRET_HEADER, TEST_SECRET).expect(405);
      expect(instanceGet.headers['allow']).toBe('PUT, DELETE');
      const beatGet = await request(registry.app).get(INTERNAL_PATHS.registryHeartbeat('m-1')).set(INTERNAL_SECRET_HEADER, TEST_SECRET).expect(405);
      expect(beatGet.headers['allow']).toBe('POST');
      const unknown = await request(registry.app).get('/internal/nothing').set(INTERNAL_SECRET_HEADER, TEST_SECRET).expect(404);
      expect(unknown.body).toMatchObject({ code: 'not_found', status: 404 });
    });
  });
});
