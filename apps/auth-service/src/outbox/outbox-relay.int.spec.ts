import { redisKeys, USER_DELETED, USER_DELETED_CUTOFF } from '@mt/contracts';
import { closeRedis, createRedis, waitForRedis, type Redis } from '@mt/stores';
import { closedPort, silentLogger, testRedisUrl } from '@mt/testing';
import { hashPat } from '@mt/tokens';
import jwt from 'jsonwebtoken';
import request from 'supertest';
import { createPat, registerUser, startAuthHarness, type AuthHarness } from '../../test/auth-harness';
import { asJwtUser, internalHeaders } from '../../test/identity-headers';
import { OwnRedis } from '../../test/own-redis';
import { RedisMirrorRepository } from './redis-mirror.repository';

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 8000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('outbox relay: nothing is lost while Redis is down', () => {
  let server: OwnRedis;
  let h: AuthHarness;
  let inspect: Redis;
  const keys = () => redisKeys(h.prefix);

  beforeAll(async () => {
    server = await OwnRedis.start();
    h = await startAuthHarness({ redisUrl: server.url, env: { OUTBOX_RELAY_INTERVAL_MS: '100' } });
    await waitForRedis(h.redis);
    inspect = createRedis({ url: server.url, logger: silentLogger(), name: 'inspect', blocking: true });
    await h.auth.relay.start();
  });
  afterAll(async () => {
    inspect.disconnect();
    await h.close();
    await server.destroy();
  });

  it('publishes the cut-off, the PAT evictions and user.deleted once Redis is back, exactly once', async () => {
    const changer = await registerUser(h.app);
    const leaver = await registerUser(h.app);
    const earlier = await registerUser(h.app);
    const leaverPat = await createPat(h.app, leaver.id, { name: 'doomed' });
    const oldJwt = (await request(h.app).post('/api/v1/auth/login').send({ username: changer.username, password: changer.password }).expect(200)).body
      .access_token as string;
    // A change made while Redis is up, to be lost by the Redis restart and re-mirrored.
    await request(h.app).put('/api/v1/auth/password').set(asJwtUser(earlier.id)).send({ current_password: earlier.password, new_password: 'earlier change' }).expect(200);
    expect(await inspect.exists(keys().jwtCutoff(earlier.id))).toBe(1);

    await server.down();
    await eventually(async () => h.redis.status, (status) => status !== 'ready');

    // Both changes succeed on MongoDB alone.
    await request(h.app).put('/api/v1/auth/password').set(asJwtUser(changer.id)).send({ current_password: changer.password, new_password: 'changed while down' }).expect(200);
    await request(h.app).delete('/api/v1/auth/me').set(asJwtUser(leaver.id)).expect(200);
    const pending = await h.auth.repositories.outbox.model.find({ publishedAt: null }).lean();
    expect(pending.map((entry) => entry.kind).sort()).toEqual(['jwt-cutoff', 'user-deleted']);
    // The gateway's fallback already knows: the cut-off endpoint reads MongoDB.
    const cutoff = await request(h.app).get(`/internal/users/${changer.id}/jwt-cutoff`).set(internalHeaders()).expect(200);
    expect(cutoff.body.cutoff_ms).toBeGreaterThan((jwt.decode(oldJwt) as { iat_ms: number }).iat_ms);
    await request(h.app).get(`/internal/users/${leaver.id}/jwt-cutoff`).set(internalHeaders()).expect(200, { exists: false, cutoff_ms: null });
    // The stale gateway cache entry written before the outage cannot be deleted yet.

    await server.up(); // a fresh, empty Redis
    await inspect.set(keys().patCache(hashPat(leaverPat.token)), JSON.stringify({ active: true })); // as if cached again
    const events = await eventually(
      () => inspect.xrange(keys().userEvents(), '-', '+'),
      (entries) => entries.length > 0,
    );
    await eventually(
      () => h.auth.repositories.outbox.model.countDocuments({ publishedAt: null }),
      (count) => count === 0,
    );
    expect(events).toHaveLength(1);
    expect(events[0]![1]).toEqual(['type', USER_DELETED, 'user_id', leaver.id, 'occurred_at', expect.any(String)]);
    expect(Number(await inspect.get(keys().jwtCutoff(changer.id)))).toBe(cutoff.body.cutoff_ms);
    expect(await inspect.get(keys().jwtCutoff(leaver.id))).toBe(USER_DELETED_CUTOFF);
    expect(JSON.parse((await inspect.get(keys().patCache(hashPat(leaverPat.token))))!)).toEqual({ active: false });
    // Re-mirrored after the restart emptied Redis.
    expect(await eventually(() => inspect.exists(keys().jwtCutoff(earlier.id)), (n) => n === 1)).toBe(1);

    // Idempotent: more passes publish nothing again.
    await h.auth.relay.runOnce();
    await h.auth.relay.runOnce();
    expect(await inspect.xlen(keys().userEvents())).toBe(1);
    expect(h.logLines().some((line) => line.includes('outbox entries not published yet'))).toBe(true);
  });

  it('finishes a deletion whose request died after writing its outbox entry', async () => {
    const user = await registerUser(h.app);
    const pat = await createPat(h.app, user.id, { name: 'orphan' });
    // What a crash right after the first step of DELETE /me leaves behind.
    await h.auth.repositories.outbox.add({ kind: 'user-deleted', userId: user.id, cutoffMs: Date.now() + 1 });
    await h.auth.relay.runOnce();
    expect(await h.auth.repositories.users.findById(user.id)).toBeUndefined();
    await request(h.app).post('/internal/introspect').set(internalHeaders()).send({ token: pat.token }).expect(200, { active: false });
    const events = await inspect.xrange(keys().userEvents(), '-', '+');
    expect(events.map((e) => e[1][3])).toContain(user.id);
    expect(await h.auth.repositories.outbox.model.countDocuments({ publishedAt: null })).toBe(0);
  });
});

describe('outbox relay with Redis on a closed port', () => {
  it('keeps the entry pending (attempt counted) while the API answers, and it publishes once Redis is reachable', async () => {
    const h = await startAuthHarness({ redisUrl: `redis://127.0.0.1:${await closedPort()}` });
    try {
      const user = await registerUser(h.app);
      await request(h.app).delete('/api/v1/auth/me').set(asJwtUser(user.id)).expect(200);
      await h.auth.relay.runOnce();
      const entry = await h.auth.repositories.outbox.model.findOne({ userId: user.id }).lean();
      expect(entry).toMatchObject({ kind: 'user-deleted', attempts: 1 });
      expect(entry?.publishedAt ?? null).toBeNull();
      expect(entry?.appliedAt).toBeInstanceOf(Date);
      // Publishing it with a working Redis later completes it.
      const working: Redis = createRedis({ url: testRedisUrl(), logger: silentLogger(), name: 'later' });
      await waitForRedis(working);
      try {
        const mirror = new RedisMirrorRepository(working, redisKeys(h.prefix), 3600_000);
        const pendingEntry = (await h.auth.repositories.outbox.pending(10, 0))[0]!;
        await mirror.publish(pendingEntry, { userId: pendingEntry.userId, cutoff: USER_DELETED_CUTOFF, sinceMs: Date.now() });
        expect(await working.xlen(redisKeys(h.prefix).userEvents())).toBe(1);
      } finally {
        await closeRedis(working);
      }
    } finally {
      await h.close();
    }
  });
});

describe('outbox relay at start-up', () => {
  it('re-mirrors cut-offs and deletions newer than the JWT lifetime, not older ones', async () => {
    const h = await startAuthHarness();
    try {
      const [recent, old, gone] = [await registerUser(h.app), await registerUser(h.app), await registerUser(h.app)];
      const now = Date.now();
      await h.auth.repositories.users.model.updateOne({ _id: recent.id }, { $set: { jwtCutoffMs: now - 60_000 } });
      await h.auth.repositories.users.model.updateOne({ _id: old.id }, { $set: { jwtCutoffMs: now - 2 * 3600_000 } });
      const deletion = await h.auth.repositories.outbox.add({ kind: 'user-deleted', userId: gone.id, cutoffMs: now - 30_000 });
      await h.auth.repositories.outbox.markPublished(deletion.id);
      await h.auth.repositories.users.delete(gone.id);

      await h.auth.relay.start();

      const keys = redisKeys(h.prefix);
      expect(Number(await h.inspect.get(keys.jwtCutoff(recent.id)))).toBe(now - 60_000);
      expect(await h.inspect.get(keys.jwtCutoff(gone.id))).toBe(USER_DELETED_CUTOFF);
      expect(await h.inspect.exists(keys.jwtCutoff(old.id))).toBe(0);
      expect(h.logLines().some((line) => line.includes('"cutoffs":2') && line.includes('JWT cut-offs mirrored to redis'))).toBe(true);
    } finally {
      await h.close();
    }
  });
});
