import { redisKeys, USER_DELETED } from '@mt/contracts';
import { hashPat } from '@mt/tokens';
import jwt from 'jsonwebtoken';
import request from 'supertest';
import { createPat, newUserData, registerUser, startAuthHarness, type AuthHarness, type RegisteredUser } from '../../test/auth-harness';
import { asJwtUser, asPatUser, internalHeaders } from '../../test/identity-headers';
import { PasswordChangedSchema } from './users.schemas';

const iatMsOf = (token: string) => (jwt.decode(token) as { iat_ms: number; iat: number }).iat_ms;

/** Waits until the start of a wall-clock second, so what follows happens within one second. */
async function startOfSecond(): Promise<void> {
  const ms = Date.now() % 1000;
  if (ms > 50) await new Promise((resolve) => setTimeout(resolve, 1000 - ms + 5));
}

describe('password change', () => {
  let h: AuthHarness;
  beforeAll(async () => {
    h = await startAuthHarness();
  });
  afterAll(() => h.close());

  const login = (username: string, password: string) => request(h.app).post('/api/v1/auth/login').send({ username, password });
  const changePassword = (user: RegisteredUser, body: Record<string, unknown>, headers = asJwtUser(user.id)) =>
    request(h.app).put('/api/v1/auth/password').set(headers).send(body);

  it('rejects a wrong current password with 403 and changes nothing', async () => {
    const user = await registerUser(h.app);
    const res = await changePassword(user, { current_password: 'not my password', new_password: 'a new passphrase' }).expect(403);
    expect(res.body).toMatchObject({ status: 403, code: 'forbidden', error: 'current password is incorrect' });
    await login(user.username, user.password).expect(200);
    expect(await h.inspect.exists(redisKeys(h.prefix).jwtCutoff(user.id))).toBe(0);
  });

  it('validates the body (400) and needs the account scope (403)', async () => {
    const user = await registerUser(h.app);
    const bad = await changePassword(user, { current_password: user.password, new_password: 'short', confirm: 'short' }).expect(400);
    expect(bad.body.details.map((d: { path: string }) => d.path).sort()).toEqual(['confirm', 'new_password']);
    const scoped = await changePassword(user, { current_password: user.password, new_password: 'long enough' }, asPatUser(user.id, ['profile:read'])).expect(403);
    expect(scoped.body.error).toBe("token lacks the 'account' scope");
  });

  it('returns a new JWT; JWTs issued before (even in the same second) fall under the cut-off, in Redis and in the cut-off endpoint; PATs keep working', async () => {
    const user = await registerUser(h.app);
    const pat = await createPat(h.app, user.id, { name: 'keeps working' });
    let before: string;
    let changed: request.Response;
    // Old JWT and change within one wall-clock second (retried if a second boundary got in between).
    for (let attempt = 0; ; attempt++) {
      await startOfSecond();
      const password = attempt === 0 ? user.password : `changed-${attempt - 1}`;
      before = (await login(user.username, password).expect(200)).body.access_token;
      changed = await changePassword(user, { current_password: password, new_password: `changed-${attempt}` }).expect(200);
      const sameSecond = Math.floor(iatMsOf(before) / 1000) === Math.floor(iatMsOf(changed.body.access_token) / 1000);
      if (sameSecond || attempt === 3) {
        expect(sameSecond).toBe(true);
        break;
      }
    }
    expect(PasswordChangedSchema.strict().parse(changed.body)).toEqual({
      message: expect.any(String),
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 3600,
    });
    const cutoffInRedis = Number(await h.inspect.get(redisKeys(h.prefix).jwtCutoff(user.id)));
    const endpoint = await request(h.app).get(`/internal/users/${user.id}/jwt-cutoff`).set(internalHeaders()).expect(200);
    expect(endpoint.body).toEqual({ exists: true, cutoff_ms: cutoffInRedis });
    expect(iatMsOf(before)).toBeLessThan(cutoffInRedis); // the gateway rejects the old JWT
    expect(iatMsOf(changed.body.access_token)).toBeGreaterThanOrEqual(cutoffInRedis); // and accepts the new one
    // The mirrored cut-off outlives every JWT it can reject (lifetime + margin).
    const ttlMs = await h.inspect.pttl(redisKeys(h.prefix).jwtCutoff(user.id));
    expect(ttlMs).toBeGreaterThan(3600_000);
    expect(ttlMs).toBeLessThanOrEqual(3600_000 + 5 * 60_000);
    // The PAT is untouched.
    const introspected = await request(h.app).post('/internal/introspect').set(internalHeaders()).send({ token: pat.token }).expect(200);
    expect(introspected.body).toMatchObject({ active: true, user_id: user.id });
    // Outbox: delivered at once.
    expect(await h.auth.repositories.outbox.model.countDocuments({ userId: user.id, publishedAt: null })).toBe(0);
  });

  it('makes the old password fail and the new one work at login', async () => {
    const user = await registerUser(h.app);
    await changePassword(user, { current_password: user.password, new_password: 'brand new passphrase' }).expect(200);
    await login(user.username, user.password).expect(401);
    await login(user.username, 'brand new passphrase').expect(200);
  });

  it('moves the cut-off forward on a second change, never back', async () => {
    const user = await registerUser(h.app);
    await changePassword(user, { current_password: user.password, new_password: 'second passphrase' }).expect(200);
    const first = Number(await h.inspect.get(redisKeys(h.prefix).jwtCutoff(user.id)));
    await changePassword(user, { current_password: 'second passphrase', new_password: 'third passphrase' }).expect(200);
    const second = Number(await h.inspect.get(redisKeys(h.prefix).jwtCutoff(user.id)));
    expect(second).toBeGreaterThan(first);
    // Replaying the first entry does not move it back.
    await h.auth.repositories.mirror.setCutoffs([{ userId: user.id, cutoffMs: first }]);
    expect(Number(await h.inspect.get(redisKeys(h.prefix).jwtCutoff(user.id)))).toBe(second);
  });
});

describe('account deletion', () => {
  let h: AuthHarness;
  beforeAll(async () => {
    h = await startAuthHarness();
  });
  afterAll(() => h.close());

  it('rejects every credential of the user afterwards, emits user.deleted and frees the username and email', async () => {
    const data = newUserData('Leaving');
    const user = await registerUser(h.app, data);
    const jwtBefore = (await request(h.app).post('/api/v1/auth/login').send({ username: user.username, password: user.password }).expect(200)).body
      .access_token as string;
    const pats = [await createPat(h.app, user.id, { name: 'one' }), await createPat(h.app, user.id, { name: 'two' })];
    const keys = redisKeys(h.prefix);
    for (const pat of pats) await h.inspect.set(keys.patCache(hashPat(pat.token)), JSON.stringify({ active: true }), 'EX', 60);
    const bystander = await registerUser(h.app);
    const bystanderPat = await createPat(h.app, bystander.id, { name: 'stays' });

    const res = await request(h.app).delete('/api/v1/auth/me').set(asJwtUser(user.id)).expect(200);
    expect(res.body).toEqual({ message: 'account deleted' });

    // PATs: inactive, cache entries gone, rows gone.
    for (const pat of pats) {
      await request(h.app).post('/internal/introspect').set(internalHeaders()).send({ token: pat.token }).expect(200, { active: false });
      expect(await h.inspect.exists(keys.patCache(hashPat(pat.token)))).toBe(0);
    }
    expect(await h.auth.repositories.tokens.model.countDocuments({ userId: user.id })).toBe(0);
    // JWTs: below the cut-off in Redis; the fallback endpoint says the user is gone.
    expect(iatMsOf(jwtBefore)).toBeLessThan(Number(await h.inspect.get(keys.jwtCutoff(user.id))));
    await request(h.app).get(`/internal/users/${user.id}/jwt-cutoff`).set(internalHeaders()).expect(200, { exists: false, cutoff_ms: null });
    await request(h.app).get('/api/v1/auth/me').set(asJwtUser(user.id)).expect(401);
    await request(h.app).post('/api/v1/auth/login').send({ username: user.username, password: user.password }).expect(401);
    // The event for the catalog services.
    const events = await h.inspect.xrange(keys.userEvents(), '-', '+');
    expect(events).toHaveLength(1);
    const fields = Object.fromEntries(
      events[0]![1].reduce<string[][]>((pairs, value, i, all) => (i % 2 ? pairs : [...pairs, [value, all[i + 1]!]]), []),
    );
    expect(fields).toEqual({ type: USER_DELETED, user_id: user.id, occurred_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) });
    // Nobody else was touched.
    await request(h.app).post('/internal/introspect').set(internalHeaders()).send({ token: bystanderPat.token }).expect(200);
    await request(h.app).get('/api/v1/auth/me').set(asJwtUser(bystander.id)).expect(200);
    // Username and email are free again (in any case).
    const again = await request(h.app)
      .post('/api/v1/auth/register')
      .send({ ...data, username: data.username.toUpperCase(), email: data.email.toUpperCase() })
      .expect(201);
    expect(again.body.id).not.toBe(user.id);
  });

  it('needs the account scope (403), a caller (401), and an existing user (401)', async () => {
    const user = await registerUser(h.app);
    const scoped = await request(h.app).delete('/api/v1/auth/me').set(asPatUser(user.id, ['profile:read', 'list:write'])).expect(403);
    expect(scoped.body.error).toBe("token lacks the 'account' scope");
    await request(h.app).delete('/api/v1/auth/me').expect(401);
    await request(h.app).delete('/api/v1/auth/me').set(asJwtUser(user.id)).expect(200);
    await request(h.app).delete('/api/v1/auth/me').set(asJwtUser(user.id)).expect(401);
    await request(h.app).get('/api/v1/auth/me').set(asJwtUser(user.id)).expect(401);
  });
});
