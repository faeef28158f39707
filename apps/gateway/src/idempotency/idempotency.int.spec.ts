import { redisKeys } from '@mt/contracts';
import type { Redis } from '@mt/stores';
import { itThroughRedisRelay, startTcpProxy, testRedisUrl } from '@mt/testing';
import { createHash } from 'node:crypto';
import express from 'express';
import request from 'supertest';
import { startTestGateway, type TestGateway } from '../../test/gateway';
import { createSigningKey, signJwt } from '../../test/keys';
import { startHttpServer, type RunningServer } from '../../test/servers';
import { StaticRouteTable } from '../../test/static-route-table';
import { startFakeAuthService, type FakeAuthService } from '../../test/upstreams';
import { IDEMPOTENCY_CLAIM_LEASE_MS } from './idempotency.middleware';

/**
 * Idempotency-Key against a real Redis and real upstreams. The `things` upstream creates a numbered
 * thing per POST it receives (so "one write" = one request reaching it) and can be told to fail, to be
 * slow, to mark its answer no-store, to answer big (`big`, or `pad` bytes), or to refuse the request with a
 * large 400 (`reject`, like a bulk-status request with hundreds of invalid ids).
 */
interface ThingsUpstream extends RunningServer {
  received: () => number;
}

async function startThingsUpstream(): Promise<ThingsUpstream> {
  let received = 0;
  const app = express();
  app.post('/api/v1/things', express.raw({ type: () => true, limit: '2mb' }), async (req, res) => {
    received += 1;
    const id = received;
    const query = req.query as Record<string, string | undefined>;
    if (query['delay_ms']) await new Promise((resolve) => setTimeout(resolve, Number(query['delay_ms'])));
    if (query['fail_first'] && id === 1) {
      res.status(503).json({ error: 'try later', status: 503, code: 'service_unavailable' });
      return;
    }
    if (query['reject']) {
      const details = Array.from({ length: 500 }, (_, i) => ({ path: `item_ids.${i}`, message: 'must be a 24-character hexadecimal id' }));
      res.status(400).json({ error: 'invalid request', status: 400, code: 'validation_failed', details });
      return;
    }
    if (query['no_store']) res.setHeader('Cache-Control', 'no-store');
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    res
      .status(201)
      .location(`/api/v1/things/${id}`)
      .json({
        id,
        body_sha256: createHash('sha256').update(body).digest('hex'),
        body_bytes: body.length,
        padding: query['big'] ? 'x'.repeat(100_000) : query['pad'] ? 'x'.repeat(Number(query['pad'])) : undefined,
      });
  });
  const server = await startHttpServer(app);
  return { ...server, received: () => received };
}

/** What the keys matching `pattern` take in Redis (MEMORY USAGE of every field: value, key name and Redis's own overhead). */
async function redisBytes(redis: Redis, pattern: string): Promise<number> {
  let total = 0;
  let cursor = '0';
  do {
    const [next, names] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    cursor = next;
    for (const name of names) total += Number((await redis.call('MEMORY', 'USAGE', name, 'SAMPLES', '0')) ?? 0);
  } while (cursor !== '0');
  return total;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 150));

describe('Idempotency-Key on POST (gateway)', () => {
  const key = createSigningKey('k1');
  let auth: FakeAuthService;
  let things: ThingsUpstream;
  let gateway: TestGateway;
  const alice = `Bearer ${signJwt(key, { sub: 'alice' })}`;
  const bob = `Bearer ${signJwt(key, { sub: 'bob' })}`;
  let keys = 0;
  const newKey = () => `key-${Date.now()}-${(keys += 1)}`;

  beforeAll(async () => {
    auth = await startFakeAuthService([key]);
    things = await startThingsUpstream();
    gateway = await startTestGateway({
      routeTable: new StaticRouteTable().setInstances('things', [{ id: 'things-1', url: things.url }]),
      authUrl: auth.url,
      env: { RATE_LIMIT_PER_MINUTE: '0' },
    });
  });
  afterAll(async () => {
    await gateway.close();
    await Promise.all([auth.close(), things.close()]);
  });

  const post = (
    idempotencyKey: string | undefined,
    body: object,
    options: { as?: string; path?: string } = {},
  ) => {
    const req = request(gateway.app)
      .post(options.path ?? '/api/v1/things')
      .set('Authorization', options.as ?? alice)
      .send(body);
    return idempotencyKey === undefined ? req : req.set('Idempotency-Key', idempotencyKey);
  };

  it('answers the same key and body with the same response, replayed, after one write', async () => {
    const idem = newKey();
    const before = things.received();
    const first = await post(idem, { title: 'Once' });
    const second = await post(idem, { title: 'Once' });
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers['location']).toBe(first.headers['location']);
    expect(second.headers['content-type']).toBe(first.headers['content-type']);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    expect(things.received() - before).toBe(1);
  });

  it('forwards the body byte for byte (it is read first to fingerprint it)', async () => {
    const text = JSON.stringify({ note: 'Amélie – 千と千尋 🎬 "quoted"'.repeat(20_000) });
    const res = await post(newKey(), JSON.parse(text));
    expect(res.status).toBe(201);
    expect(res.body.body_sha256).toBe(createHash('sha256').update(text).digest('hex'));
  });

  it('answers the same key with another body, path or query with 422 and writes nothing', async () => {
    const idem = newKey();
    await post(idem, { title: 'First' }).expect(201);
    const before = things.received();
    for (const other of [
      post(idem, { title: 'Second' }),
      post(idem, { title: 'First' }, { path: '/api/v1/things?x=1' }),
    ]) {
      const res = await other;
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({
        status: 422,
        code: 'idempotency_key_reused',
        request_id: res.headers['x-request-id'],
      });
    }
    expect(things.received()).toBe(before);
  });

  it('answers a request made while the first with its key is still running with 409, then replays', async () => {
    const idem = newKey();
    const before = things.received();
    // (supertest sends on then(): start the first one now.)
    const slow = post(idem, { title: 'Slow' }, { path: '/api/v1/things?delay_ms=800' }).then((res) => res);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const racing = await post(idem, { title: 'Slow' }, { path: '/api/v1/things?delay_ms=800' });
    expect(racing.status).toBe(409);
    expect(racing.body).toMatchObject({
      code: 'conflict',
      error: expect.stringContaining('still being processed'),
    });
    const first = await slow;
    expect(first.status).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const later = await post(idem, { title: 'Slow' }, { path: '/api/v1/things?delay_ms=800' });
    expect(later.headers['idempotent-replayed']).toBe('true');
    expect(later.body).toEqual(first.body);
    expect(things.received() - before).toBe(1);
  });

  it('runs exactly one of many concurrent requests with one key', async () => {
    const idem = newKey();
    const before = things.received();
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        post(idem, { title: 'Crowd' }, { path: '/api/v1/things?delay_ms=200' }),
      ),
    );
    const statuses = results.map((res) => res.status).sort();
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status !== 201).every((status) => status === 409)).toBe(true);
    expect(things.received() - before).toBe(1);
  });

  it('keeps keys apart per caller: another user with the same key runs its own request', async () => {
    const idem = newKey();
    const before = things.received();
    const mine = await post(idem, { title: 'Mine' }).expect(201);
    const theirs = await post(idem, { title: 'Mine' }, { as: bob }).expect(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.body.id).not.toBe(mine.body.id);
    expect(things.received() - before).toBe(2);
  });

  it('keys anonymous requests by client IP', async () => {
    const idem = newKey();
    const publicCallsBefore = auth.calls.public;
    const register = () =>
      request(gateway.app)
        .post('/api/v1/auth/register')
        .set('Idempotency-Key', idem)
        .send({ username: 'anon', email: 'a@b.c', password: 'password1' });
    const first = await register();
    const second = await register();
    expect(first.status).toBe(200);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body).toEqual(first.body);
    expect(auth.calls.public - publicCallsBefore).toBe(1);
  });

  itThroughRedisRelay('records the outcome before the answer ends: the same request sent at once to another gateway is a replay', async () => {
    // This gateway's Redis is slow to hear it; the other's is not. Were the outcome recorded after the answer
    // went out, the retry's claim would reach Redis first and find the key still in flight (409).
    const slowRedis = await startTcpProxy(testRedisUrl(), { latencyMs: 150 });
    const slow = await startTestGateway({
      routeTable: new StaticRouteTable().setInstances('things', [{ id: 'things-1', url: things.url }]),
      authUrl: auth.url,
      env: { RATE_LIMIT_PER_MINUTE: '0' },
      prefix: gateway.prefix,
      redisUrl: slowRedis.url,
    });
    try {
      for (let trial = 0; trial < 3; trial++) {
        const idem = newKey();
        const before = things.received();
        const first = await request(slow.app).post('/api/v1/things').set('Authorization', alice).set('Idempotency-Key', idem).send({ trial });
        const retry = await post(idem, { trial });
        expect(first.status).toBe(201);
        expect(retry.status).toBe(201);
        expect(retry.headers['idempotent-replayed']).toBe('true');
        expect(retry.body).toEqual(first.body);
        expect(things.received() - before).toBe(1);
      }
    } finally {
      await slow.close();
      await slowRedis.close();
    }
  });

  it('stores no 4xx: 300 keys answered by a large 400 grow Redis by less than 1 MiB', async () => {
    const flooder = `Bearer ${signJwt(key, { sub: 'flooder' })}`;
    // Like a bulk-status request (about 2.9 KB) whose ids are all invalid: a 37 KB 400 each.
    const body = { item_ids: Array.from({ length: 110 }, (_, i) => `not-an-id-${i}`.padEnd(24, 'x')), status: 'completed' };
    const before = await redisBytes(gateway.redis, `${gateway.prefix}*`);
    for (let sent = 0; sent < 300; sent += 20) {
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => post(newKey(), body, { as: flooder, path: '/api/v1/things?reject=1' })),
      );
      for (const answer of answers) {
        expect(answer.status).toBe(400);
        expect(answer.text.length).toBeGreaterThan(36_000);
      }
    }
    await settle();
    const grown = (await redisBytes(gateway.redis, `${gateway.prefix}*`)) - before;
    expect(grown).toBeLessThan(1024 * 1024);
  }, 60_000);

  it('replays no 4xx: the same key after a 400 runs again, and a corrected request may use it', async () => {
    const idem = newKey();
    const before = things.received();
    expect((await post(idem, { t: 1 }, { path: '/api/v1/things?reject=1' })).status).toBe(400);
    await settle();
    const again = await post(idem, { t: 1 }, { path: '/api/v1/things?reject=1' });
    expect(again.status).toBe(400);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    await settle();
    const corrected = await post(idem, { t: 2 });
    expect(corrected.status).toBe(201);
    expect(things.received() - before).toBe(3);
  });

  it("bounds a caller's stored answers in count and bytes, forgetting its oldest first", async () => {
    const gw = await startTestGateway({
      routeTable: new StaticRouteTable().setInstances('things', [{ id: 'things-1', url: things.url }]),
      authUrl: auth.url,
      env: { RATE_LIMIT_PER_MINUTE: '0', IDEMPOTENCY_MAX_ANSWERS: '20', IDEMPOTENCY_MAX_BYTES: '65536' },
    });
    const keysOf = redisKeys(gw.prefix);
    const send = (idem: string, path = '/api/v1/things', as = alice) =>
      request(gw.app).post(path).set('Authorization', as).set('Idempotency-Key', idem).send({ t: idem });
    try {
      const small = Array.from({ length: 30 }, () => newKey());
      for (const idem of small) expect((await send(idem)).status).toBe(201);
      await send(newKey(), '/api/v1/things', bob).expect(201);
      await settle();
      expect(await gw.redis.zcard(keysOf.idempotencyAnswers('user:alice'))).toBe(20);
      const before = things.received();
      expect((await send(small[29]!)).headers['idempotent-replayed']).toBe('true');
      const forgotten = await send(small[0]!);
      expect(forgotten.status).toBe(201);
      expect(forgotten.headers['idempotent-replayed']).toBeUndefined();
      expect(things.received() - before).toBe(1);

      // About 27 KB each as stored: two fit in 64 KiB.
      const large = Array.from({ length: 6 }, () => newKey());
      for (const idem of large) expect((await send(idem, '/api/v1/things?pad=20000')).status).toBe(201);
      await settle();
      expect(Number(await gw.redis.get(keysOf.idempotencyBytes('user:alice')))).toBeLessThanOrEqual(65_536);
      expect(await redisBytes(gw.redis, `${gw.prefix}idempotency*user:alice*`)).toBeLessThan(1.25 * 65_536);
      expect((await send(large[5]!, '/api/v1/things?pad=20000')).headers['idempotent-replayed']).toBe('true');
      // Another caller's answers are not touched by alice's.
      expect(await gw.redis.zcard(keysOf.idempotencyAnswers('user:bob'))).toBe(1);
    } finally {
      await gw.close();
    }
  });

  it('keeps the outcome for 24 hours', async () => {
    const idem = newKey();
    await post(idem, { title: 'Kept' }).expect(201);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const name = redisKeys(gateway.prefix).idempotency(
      'user:alice',
      createHash('sha256').update(idem).digest('base64url'),
    );
    const ttl = await gateway.redis.pttl(name);
    expect(ttl).toBeGreaterThan(24 * 3600 * 1000 - 60_000);
    expect(ttl).toBeLessThanOrEqual(24 * 3600 * 1000);
  });

  it('does not keep a 5xx: the same key may be retried and runs again', async () => {
    const flaky = await startThingsUpstream();
    const routes = new StaticRouteTable().setInstances('things', [{ id: 'flaky', url: flaky.url }]);
    const gw = await startTestGateway({
      routeTable: routes,
      authUrl: auth.url,
      env: { RATE_LIMIT_PER_MINUTE: '0' },
    });
    try {
      const idem = newKey();
      const send = () =>
        request(gw.app)
          .post('/api/v1/things?fail_first=1')
          .set('Authorization', alice)
          .set('Idempotency-Key', idem)
          .send({ t: 1 });
      expect((await send()).status).toBe(503);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const retried = await send();
      expect(retried.status).toBe(201);
      expect(retried.headers['idempotent-replayed']).toBeUndefined();
      await new Promise((resolve) => setTimeout(resolve, 100));
      const replayed = await send();
      expect(replayed.headers['idempotent-replayed']).toBe('true');
      expect(replayed.body).toEqual(retried.body);
      expect(flaky.received()).toBe(2);
    } finally {
      await gw.close();
      await flaky.close();
    }
  });

  itThroughRedisRelay('frees a key whose release met a Redis outage as soon as Redis answers again, not when the claim lapses', async () => {
    const relay = await startTcpProxy(testRedisUrl());
    const flaky = await startThingsUpstream();
    const cut = await startTestGateway({
      routeTable: new StaticRouteTable().setInstances('things', [{ id: 'flaky', url: flaky.url }]),
      authUrl: auth.url,
      env: { RATE_LIMIT_PER_MINUTE: '0' },
      prefix: gateway.prefix,
      redisUrl: relay.url,
    });
    try {
      const idem = newKey();
      // The first try runs (its claim taken), then Redis goes away while the upstream works, and the upstream
      // answers 503: the gateway cannot release the claim.
      const answered = request(cut.app).post('/api/v1/things?fail_first=1&delay_ms=400').set('Authorization', alice).set('Idempotency-Key', idem).send({ t: 1 }).then((response) => response);
      await new Promise((resolve) => setTimeout(resolve, 150));
      await relay.cut();
      expect((await answered).status).toBe(503);
      await relay.restore();
      const restoredAt = Date.now();
      // The same request again, as a client retries a 5xx: 503 while the gateway has no Redis yet, 409 while the
      // first claim holds the key.
      const again = () => request(cut.app).post('/api/v1/things?fail_first=1&delay_ms=400').set('Authorization', alice).set('Idempotency-Key', idem).send({ t: 1 });
      let retry = await again();
      while ((retry.status === 409 || retry.status === 503) && Date.now() - restoredAt < IDEMPOTENCY_CLAIM_LEASE_MS + 2_000) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        retry = await again();
      }
      expect(retry.status).toBe(201);
      expect(flaky.received()).toBe(2);
      // Freed once the gateway's Redis connection is back (its reconnect backs off up to 2 s), long before the lease.
      expect(Date.now() - restoredAt).toBeLessThan(IDEMPOTENCY_CLAIM_LEASE_MS / 2);
    } finally {
      await cut.close();
      await flaky.close();
      await relay.close();
    }
  }, 30_000);

  it('never stores a response marked no-store (credentials): the key stays free', async () => {
    const idem = newKey();
    const before = things.received();
    await post(idem, { t: 1 }, { path: '/api/v1/things?no_store=1' }).expect(201);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const again = await post(idem, { t: 1 }, { path: '/api/v1/things?no_store=1' }).expect(201);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(things.received() - before).toBe(2);
    const name = redisKeys(gateway.prefix).idempotency(
      'user:alice',
      createHash('sha256').update(idem).digest('base64url'),
    );
    expect(await gateway.redis.exists(name)).toBe(0);
  });

  it('keeps a response too large to store as "done" without replaying it (409), and writes once', async () => {
    const idem = newKey();
    const before = things.received();
    await post(idem, { t: 1 }, { path: '/api/v1/things?big=1' }).expect(201);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const again = await post(idem, { t: 1 }, { path: '/api/v1/things?big=1' });
    expect(again.status).toBe(409);
    expect(again.body.error).toContain('too large to replay');
    expect(things.received() - before).toBe(1);
  });

  it.each<[string, string | string[]]>([
    ['empty', ''],
    ['longer than 255', 'k'.repeat(256)],
    ['with a space', 'two words'],
    ['with a non-ASCII character', 'clé'],
    ['sent twice', ['a', 'b']],
  ])('rejects a key %s with 400 before anything reaches the upstream', async (_name, bad) => {
    const before = things.received();
    const res = await request(gateway.app)
      .post('/api/v1/things')
      .set('Authorization', alice)
      .set('Idempotency-Key', bad as string)
      .send({ t: 1 });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'validation_failed',
      details: [{ path: 'Idempotency-Key', message: expect.any(String) }],
    });
    expect(things.received()).toBe(before);
  });

  it('accepts the draft’s quoted form and the bare form as the same key, up to 255 characters', async () => {
    const idem = `${newKey()}-${'k'.repeat(200)}`;
    const first = await post(`"${idem}"`, { t: 'quoted' }).expect(201);
    const second = await post(idem, { t: 'quoted' }).expect(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body).toEqual(first.body);
  });

  it('answers a body over the limit with 413 and claims nothing', async () => {
    const idem = newKey();
    const before = things.received();
    const res = await post(idem, { big: 'x'.repeat(1024 * 1024) });
    expect(res.status).toBe(413);
    expect(things.received()).toBe(before);
    expect((await post(idem, { small: true })).status).toBe(201);
  });

  it('leaves requests without the header as they were', async () => {
    const before = things.received();
    await post(undefined, { t: 1 }).expect(201);
    await post(undefined, { t: 1 }).expect(201);
    expect(things.received() - before).toBe(2);
  });

  it('answers 503 when Redis cannot be reached, rather than run the request without the guarantee', async () => {
    const down = await startTestGateway({
      routeTable: new StaticRouteTable(),
      authUrl: auth.url,
      redisDown: true,
      env: { RATE_LIMIT_PER_MINUTE: '0' },
    });
    try {
      const res = await request(down.app)
        .post('/api/v1/auth/register')
        .set('Idempotency-Key', newKey())
        .send({ username: 'x' });
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({
        code: 'service_unavailable',
        error: expect.stringContaining('Idempotency-Key'),
      });
    } finally {
      await down.close();
    }
  });
});
