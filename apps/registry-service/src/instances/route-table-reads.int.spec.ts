import { INTERNAL_PATHS, type RouteTableSnapshot } from '@mt/contracts';
import { INTERNAL_SECRET_HEADER } from '@mt/identity';
import { sampleRegistration } from '@mt/registry-testing';
import { deleteRedisPrefix, testRedisPrefix } from '@mt/testing';
import { createHash } from 'node:crypto';
import request from 'supertest';
import { startRegistry, TEST_SECRET, type RunningRegistry } from '../../test/registry-harness';

const prefix = testRedisPrefix('registry-reads');
const TTL_MS = 800;
/** Trials of the race below: 10 in `npm test`, more with RACE_TRIALS. */
const TRIALS = Number(process.env['RACE_TRIALS'] ?? 10);

describe('route table reads (real Redis)', () => {
  let registry: RunningRegistry;

  const put = (id: string, body: unknown) =>
    request(registry.app).put(INTERNAL_PATHS.registryInstance(id)).set(INTERNAL_SECRET_HEADER, TEST_SECRET).send(body as object);
  const beat = (id: string) => request(registry.app).post(INTERNAL_PATHS.registryHeartbeat(id)).set(INTERNAL_SECRET_HEADER, TEST_SECRET);
  const remove = (id: string) => request(registry.app).delete(INTERNAL_PATHS.registryInstance(id)).set(INTERNAL_SECRET_HEADER, TEST_SECRET);
  const read = (etag?: string) => {
    const test = request(registry.app).get(INTERNAL_PATHS.registryRoutes).set(INTERNAL_SECRET_HEADER, TEST_SECRET);
    return etag ? test.set('If-None-Match', etag) : test;
  };
  const liveIds = async () => ((await read().expect(200)).body as RouteTableSnapshot).services.flatMap((s) => s.instances.map((i) => i.instance_id));

  beforeAll(async () => {
    // No sweep during a test: what leaves the table by its TTL alone must leave it all the same.
    registry = await startRegistry({ prefix, ttlMs: TTL_MS, sweepIntervalMs: 60_000 });
  });
  beforeEach(() => deleteRedisPrefix(prefix));
  afterAll(async () => {
    await registry.stop();
    await deleteRedisPrefix(prefix);
  });

  it('keeps one table and one ETag, the SHA-256 of its JSON, while only heartbeats arrive, and answers 304 to it', async () => {
    await put('movies-1', sampleRegistration('movies', 'http://127.0.0.1:4001')).expect(201);
    const first = await read().expect(200);
    const etag = first.headers['etag'] as string;
    // Every registry version names a table alike, so gateways keep their 304s across a rolling upgrade.
    expect(etag).toBe(`"${createHash('sha256').update(JSON.stringify(first.body)).digest('base64url')}"`);
    for (let i = 0; i < 3; i++) {
      await beat('movies-1').expect(200);
      await read(etag).expect(304);
    }
    expect((await read().expect(200)).body).toEqual(first.body);
  });

  it('serves a changed registration at once, under a new ETag', async () => {
    const body = sampleRegistration('movies', 'http://127.0.0.1:4001');
    await put('movies-1', body).expect(201);
    const etag = (await read().expect(200)).headers['etag'] as string;
    await put('movies-1', { ...body, version: '1.1.0' }).expect(200);
    const changed = await read(etag).expect(200);
    expect(changed.headers['etag']).not.toBe(etag);
    expect((changed.body as RouteTableSnapshot).services[0]!.instances[0]!.version).toBe('1.1.0');
  });

  it('drops an instance whose TTL lapsed although no sweep has removed it yet', async () => {
    await put('movies-1', sampleRegistration('movies', 'http://127.0.0.1:4001')).expect(201);
    await put('books-1', sampleRegistration('books', 'http://127.0.0.1:4004')).expect(201);
    expect(await liveIds()).toEqual(['books-1', 'movies-1']);
    const deadline = Date.now() + TTL_MS + 400;
    while (Date.now() < deadline) {
      await beat('books-1').expect(200);
      await new Promise((resolve) => setTimeout(resolve, TTL_MS / 4));
    }
    expect(await liveIds()).toEqual(['books-1']);
    // Known from its registration, the service keeps its routes without instances.
    expect(((await read().expect(200)).body as RouteTableSnapshot).services.map((s) => [s.service, s.instances.length])).toEqual([
      ['books', 1],
      ['movies', 0],
    ]);
  });

  it(`never serves an instance after its deregistration was acknowledged, with reads racing its registration (${TRIALS} trials)`, async () => {
    await put('books-1', sampleRegistration('books', 'http://127.0.0.1:4004')).expect(201);
    await liveIds();
    const stale: number[] = [];
    for (let trial = 0; trial < TRIALS; trial++) {
      const racingReads = Array.from({ length: 8 }, () => read().expect(200));
      await Promise.all([put('movies-1', sampleRegistration('movies', `http://127.0.0.1:${5000 + trial}`)).expect(201), ...racingReads]);
      expect(await liveIds()).toContain('movies-1');
      await remove('movies-1').expect(200);
      if ((await liveIds()).includes('movies-1')) stale.push(trial);
      // Keeps books-1 live through the trials.
      await beat('books-1').expect(200);
    }
    expect(stale).toEqual([]);
  }, 60_000);
});
