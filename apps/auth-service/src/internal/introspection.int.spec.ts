import { IntrospectionResultSchema, redisKeys } from '@mt/contracts';
import { generatePat, hashPat } from '@mt/tokens';
import { closedPort } from '@mt/testing';
import type { MongoClient } from 'mongodb';
import request from 'supertest';
import { createPat, registerUser, startAuthHarness, type AuthHarness } from '../../test/auth-harness';
import { asJwtUser, internalHeaders } from '../../test/identity-headers';

/** Counts every command the service's MongoDB client sends (driver command monitoring). */
function commandCounter(h: AuthHarness) {
  const client = h.connection.getClient() as unknown as MongoClient;
  let count = 0;
  const listener = () => void (count += 1);
  client.on('commandStarted', listener);
  return { count: () => count, stop: () => void client.off('commandStarted', listener) };
}

/** Flips one checksum character: same shape, wrong CRC32. */
const breakChecksum = (token: string) => token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');

describe('POST /internal/introspect', () => {
  let h: AuthHarness;
  beforeAll(async () => {
    h = await startAuthHarness();
  });
  afterAll(() => h.close());

  const introspect = (token: string, app = h.app) =>
    request(app).post('/internal/introspect').set(internalHeaders()).send({ token });

  it('answers active with user_id, username, scopes, token_id and expires_at for a valid token', async () => {
    const user = await registerUser(h.app);
    const pat = await createPat(h.app, user.id, { name: 'script', scopes: ['list:read', 'profile:read'] });
    const res = await introspect(pat.token).expect(200);
    const stored = await h.auth.repositories.tokens.model.findById(pat.id).lean();
    expect(IntrospectionResultSchema.parse(res.body)).toEqual({
      active: true,
      user_id: user.id,
      username: user.username,
      scopes: ['list:read', 'profile:read'],
      token_id: pat.id,
      expires_at: stored!.expiresAt.toISOString(),
    });
  });

  it('answers inactive for a revoked token', async () => {
    const user = await registerUser(h.app);
    const pat = await createPat(h.app, user.id);
    await request(h.app).delete(`/api/v1/auth/tokens/${pat.id}`).set(asJwtUser(user.id)).expect(200);
    await introspect(pat.token).expect(200, { active: false });
  });

  it('answers inactive for an expired token', async () => {
    const user = await registerUser(h.app);
    const pat = await createPat(h.app, user.id);
    await h.auth.repositories.tokens.model.updateOne({ _id: pat.id }, { $set: { expiresAt: new Date(Date.now() - 1) } });
    await introspect(pat.token).expect(200, { active: false });
  });

  it('answers inactive for a token whose user no longer exists', async () => {
    const user = await registerUser(h.app);
    const pat = await createPat(h.app, user.id);
    await h.auth.repositories.users.delete(user.id);
    await introspect(pat.token).expect(200, { active: false });
  });

  it('answers inactive for a malformed token without any database query', async () => {
    const monitored = await startAuthHarness({ monitorCommands: true });
    const counter = commandCounter(monitored);
    try {
      const user = await registerUser(monitored.app);
      const pat = await createPat(monitored.app, user.id);
      // Control: a well-formed token that matches nothing is looked up, so the counter does see queries.
      const beforeControl = counter.count();
      await introspect(generatePat(), monitored.app).expect(200, { active: false });
      const afterControl = counter.count();
      expect(afterControl).toBeGreaterThan(beforeControl);
      for (const malformed of [breakChecksum(pat.token), 'mtp_short', 'not a token', pat.token.toLowerCase(), `${pat.token}x`, '']) {
        await introspect(malformed, monitored.app).expect(200, { active: false });
      }
      expect(counter.count()).toBe(afterControl);
    } finally {
      counter.stop();
      await monitored.close();
    }
  });

  it('needs the internal secret (401) and a valid body (400)', async () => {
    const noSecret = await request(h.app).post('/internal/introspect').send({ token: 'mtp_x' }).expect(401);
    expect(noSecret.body).toMatchObject({ code: 'unauthorized', error: 'internal endpoint' });
    await request(h.app).post('/internal/introspect').set(internalHeaders('wrong-secret-wrong-secret-wrong-secret')).send({ token: 'x' }).expect(401);
    const bad = await request(h.app).post('/internal/introspect').set(internalHeaders()).send({ token: 1, extra: true }).expect(400);
    expect(bad.body.details.map((d: { path: string }) => d.path).sort()).toEqual(['extra', 'token']);
  });

  describe('last_used_at', () => {
    const lastUsedOf = async (id: string) => (await h.auth.repositories.tokens.model.findById(id).lean())!.lastUsedAt;

    it('is written on first use, then at most once a minute (Redis SET NX EX 60 on patLastUsed)', async () => {
      const user = await registerUser(h.app);
      const pat = await createPat(h.app, user.id);
      expect(await lastUsedOf(pat.id)).toBeNull();
      await introspect(pat.token).expect(200);
      const first = await lastUsedOf(pat.id);
      expect(first).toBeInstanceOf(Date);
      const ttl = await h.inspect.ttl(redisKeys(h.prefix).patLastUsed(pat.id));
      expect(ttl).toBeGreaterThan(55);
      await new Promise((resolve) => setTimeout(resolve, 5));
      await introspect(pat.token).expect(200);
      expect(await lastUsedOf(pat.id)).toEqual(first);
      // Shown in the token list.
      const list = await request(h.app).get('/api/v1/auth/tokens').set(asJwtUser(user.id)).expect(200);
      expect(list.body[0].last_used_at).toBe(first!.toISOString());
    });

    it('falls back on the stored value when the Redis gate is gone: still at most once a minute', async () => {
      const user = await registerUser(h.app);
      const pat = await createPat(h.app, user.id);
      await introspect(pat.token).expect(200);
      const first = await lastUsedOf(pat.id);
      await h.inspect.del(redisKeys(h.prefix).patLastUsed(pat.id));
      await introspect(pat.token).expect(200);
      expect(await lastUsedOf(pat.id)).toEqual(first);
      // A minute later (simulated by ageing the stored value) it is written again.
      await h.auth.repositories.tokens.model.updateOne({ _id: pat.id }, { $set: { lastUsedAt: new Date(Date.now() - 61_000) } });
      await h.inspect.del(redisKeys(h.prefix).patLastUsed(pat.id));
      await introspect(pat.token).expect(200);
      expect((await lastUsedOf(pat.id))!.getTime()).toBeGreaterThan(Date.now() - 5000);
    });

    it('is still throttled by the stored value, and introspection still works, with Redis unreachable', async () => {
      const down = await startAuthHarness({ redisUrl: `redis://127.0.0.1:${await closedPort()}` });
      try {
        const user = await registerUser(down.app);
        const pat = await createPat(down.app, user.id);
        const res = await introspect(pat.token, down.app).expect(200);
        expect(res.body.active).toBe(true);
        const first = (await down.auth.repositories.tokens.model.findById(pat.id).lean())!.lastUsedAt;
        expect(first).toBeInstanceOf(Date);
        await new Promise((resolve) => setTimeout(resolve, 5));
        await introspect(pat.token, down.app).expect(200);
        expect((await down.auth.repositories.tokens.model.findById(pat.id).lean())!.lastUsedAt).toEqual(first);
      } finally {
        await down.close();
      }
    });
  });
});

describe('other internal endpoints', () => {
  let h: AuthHarness;
  beforeAll(async () => {
    h = await startAuthHarness();
  });
  afterAll(() => h.close());

  it('GET /internal/users/{id}/jwt-cutoff answers exists:false for an unknown user, 400 for a malformed id, 401 without the secret', async () => {
    await request(h.app).get('/internal/users/0123456789abcdef01234567/jwt-cutoff').set(internalHeaders()).expect(200, { exists: false, cutoff_ms: null });
    const bad = await request(h.app).get('/internal/users/nope/jwt-cutoff').set(internalHeaders()).expect(400);
    expect(bad.body.code).toBe('validation_failed');
    await request(h.app).get('/internal/users/0123456789abcdef01234567/jwt-cutoff').expect(401);
  });

  it('GET /internal/jwks publishes the EC P-256 public key with its RFC 7638 thumbprint as kid, to internal callers', async () => {
    await request(h.app).get('/internal/jwks').expect(401);
    const res = await request(h.app).get('/internal/jwks').set(internalHeaders()).expect(200);
    expect(res.body).toEqual({ keys: [{ kty: 'EC', crv: 'P-256', x: expect.any(String), y: expect.any(String), kid: h.auth.keys.kid, alg: 'ES256', use: 'sig' }] });
    expect(JSON.stringify(res.body)).not.toMatch(/"d"/);
  });

  it('never sends a token hash in any answer', async () => {
    const user = await registerUser(h.app);
    const pat = await createPat(h.app, user.id);
    const res = await request(h.app).post('/internal/introspect').set(internalHeaders()).send({ token: pat.token }).expect(200);
    expect(JSON.stringify(res.body)).not.toContain(hashPat(pat.token));
  });
});
