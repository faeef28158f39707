import { INTERNAL_PATHS, redisKeys } from '@mt/contracts';
import { INTERNAL_SECRET_HEADER } from '@mt/identity';
import { closeRedis, createRedis, waitForRedis, type Redis } from '@mt/stores';
import { deleteRedisPrefix, silentLogger, testRedisPrefix, testRedisUrl } from '@mt/testing';
import { sampleRegistration } from '@mt/registry-testing';
import request from 'supertest';
import { startRegistry, TEST_SECRET, type RunningRegistry } from '../../test/registry-harness';

const prefix = testRedisPrefix('registry2');
const TTL_MS = 1500;

const live = (table: { services: Array<{ service: string; instances: unknown[] }> }) =>
  table.services.filter((s) => s.instances.length > 0).map((s) => s.service);

describe('two registry instances over one Redis', () => {
  let a: RunningRegistry;
  let b: RunningRegistry;
  let subscriber: Redis;
  const messages: Array<{ type: string }> = [];
  const routesOf = async (registry: RunningRegistry) =>
    (await request(registry.app).get(INTERNAL_PATHS.registryRoutes).set(INTERNAL_SECRET_HEADER, TEST_SECRET).expect(200)).body;

  beforeAll(async () => {
    [a, b] = await Promise.all([
      startRegistry({ prefix, ttlMs: TTL_MS, sweepIntervalMs: 100 }),
      startRegistry({ prefix, ttlMs: TTL_MS, sweepIntervalMs: 100 }),
    ]);
    subscriber = createRedis({ url: testRedisUrl(), logger: silentLogger(), name: 'test-sub', blocking: true });
    await waitForRedis(subscriber);
    await subscriber.subscribe(redisKeys(prefix).registryChanges());
    subscriber.on('message', (_channel, message: string) => messages.push(JSON.parse(message)));
  });
  afterAll(async () => {
    await Promise.all([a.stop(), b.stop(), closeRedis(subscriber)]);
    await deleteRedisPrefix(prefix);
  });

  it('agree on registrations, heartbeats and deregistrations made through either', async () => {
    await request(a.app).put(INTERNAL_PATHS.registryInstance('movies-1')).set(INTERNAL_SECRET_HEADER, TEST_SECRET)
      .send(sampleRegistration('movies', 'http://127.0.0.1:4001')).expect(201);
    // The same registration through B is a refresh, not a new instance.
    await request(b.app).put(INTERNAL_PATHS.registryInstance('movies-1')).set(INTERNAL_SECRET_HEADER, TEST_SECRET)
      .send(sampleRegistration('movies', 'http://127.0.0.1:4001')).expect(200);
    await request(b.app).put(INTERNAL_PATHS.registryInstance('books-1')).set(INTERNAL_SECRET_HEADER, TEST_SECRET)
      .send(sampleRegistration('books', 'http://127.0.0.1:4002')).expect(201);
    const [fromA, fromB] = await Promise.all([routesOf(a), routesOf(b)]);
    expect(fromA).toEqual(fromB);
    expect(live(fromA)).toEqual(['books', 'movies']);

    await request(b.app).post(INTERNAL_PATHS.registryHeartbeat('movies-1')).set(INTERNAL_SECRET_HEADER, TEST_SECRET).expect(200);
    await request(b.app).delete(INTERNAL_PATHS.registryInstance('books-1')).set(INTERNAL_SECRET_HEADER, TEST_SECRET).expect(200);
    await request(a.app).post(INTERNAL_PATHS.registryHeartbeat('books-1')).set(INTERNAL_SECRET_HEADER, TEST_SECRET).expect(404);
    expect(live(await routesOf(a))).toEqual(['movies']);
    expect(await routesOf(a)).toEqual(await routesOf(b));
  });

  it('expire a silent instance once, with both sweepers running', async () => {
    messages.length = 0;
    await request(a.app).put(INTERNAL_PATHS.registryInstance('tv-1')).set(INTERNAL_SECRET_HEADER, TEST_SECRET)
      .send(sampleRegistration('tvshows', 'http://127.0.0.1:4003')).expect(201);
    await new Promise((r) => setTimeout(r, TTL_MS * 2 + 300));
    const expired = messages.filter((m) => m.type === 'expired');
    // movies-1 (left over from the previous test) and tv-1 both expire; each is announced exactly once.
    expect(expired.flatMap((m) => (m as { instance_ids?: string[] }).instance_ids ?? []).sort()).toEqual(['movies-1', 'tv-1']);
    // Both services stay known (their routes answer 503 rather than 404), with no live instance.
    expect(live(await routesOf(a))).toEqual([]);
    expect(live(await routesOf(b))).toEqual([]);
    expect((await routesOf(a)).services.map((s: { service: string }) => s.service)).toEqual(['books', 'movies', 'tvshows']);
  });
});
