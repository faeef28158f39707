import { PAT_CACHE_TTL_SECONDS, redisKeys, USER_DELETED, USER_DELETED_CUTOFF } from '@mt/contracts';
import { hashPat } from '@mt/tokens';
import jwt from 'jsonwebtoken';
import request from 'supertest';
import { createPat, newUserData, registerUser, startAuthHarness, type AuthHarness, type RegisteredUser } from '../../test/auth-harness';
import { asJwtUser, asPatUser, internalHeaders } from '../../test/identity-headers';
import { PasswordChangedSchema } from './users.schemas';

/** The cut-off a JWT was minted under (what the gateway compares with the user's current one). */
const cutoffOf = (token: string) => (jwt.decode(token) as { cutoff_ms: number }).cutoff_ms;

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

  it('returns a new JWT minted under the new cut-off; JWTs minted before (whenever) carry an older one, in Redis and in the cut-off endpoint; PATs keep working', async () => {
    const user = await registerUser(h.app);
    const pat = await createPat(h.app, user.id, { name: 'keeps working' });
    const before: string = (await login(user.username, user.password).expect(200)).body.access_token;
    expect(cutoffOf(before)).toBe(0); // no change yet
    const changed = await changePassword(user, { current_password: user.password, new_password: 'changed once' }).expect(200);
    expect(PasswordChangedSchema.strict().parse(changed.body)).toEqual({
      message: expect.any(String),
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 3600,
    });
    const cutoffInRedis = Number(await h.inspect.get(redisKeys(h.prefix).jwtCutoff(user.id)));
    const endpoint = await request(h.app).get(`/internal/users/${user.id}/jwt-cutoff`).set(internalHeaders()).expect(200);
    expect(endpoint.body).toEqual({ exists: true, cutoff_ms: cutoffInRedis });
    expect(cutoffOf(before)).toBeLessThan(cutoffInRedis); // the gateway rejects the old JWT
    expect(cutoffOf(changed.body.access_token)).toBe(cutoffInRedis); // and accepts the new one
    const after: string = (await login(user.username, 'changed once').expect(200)).body.access_token;
    expect(cutoffOf(after)).toBe(cutoffInRedis); // as every later login
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
    await h.auth.repositories.mirror.setCutoffs([{ userId: user.id, cutoff: first, sinceMs: first }]);
    expect(Number(await h.inspect.get(redisKeys(h.prefix).jwtCutoff(user.id)))).toBe(second);
  });

  it('publishes the cut-off MongoDB holds, not the one of an entry whose change lost to a concurrent one', async () => {
    const user = await registerUser(h.app);
    const changed = await changePassword(user, { current_password: user.password, new_password: 'the winner' }).expect(200);
    const winner = cutoffOf(changed.body.access_token);
    // What a change that lost the race (its conditional update matched nothing) leaves in the outbox.
    const loser = await h.auth.repositories.outbox.add({ kind: 'jwt-cutoff', userId: user.id, cutoffMs: winner + 60_000 });
    await h.auth.relay.deliver(loser);
    expect(Number(await h.inspect.get(redisKeys(h.prefix).jwtCutoff(user.id)))).toBe(winner);
    await request(h.app).get(`/internal/users/${user.id}/jwt-cutoff`).set(internalHeaders()).expect(200, { exists: true, cutoff_ms: winner });
  });

  it('moves the cut-off strictly forward even when two changes fall in one millisecond', async () => {
    const user = await registerUser(h.app);
    const future = Date.now() + 60_000; // as if the last change was stamped by a clock ahead of ours
    await h.auth.repositories.users.model.updateOne({ _id: user.id }, { $set: { jwtCutoffMs: future } });
    const before: string = (await login(user.username, user.password).expect(200)).body.access_token;
    const changed = await changePassword(user, { current_password: user.password, new_password: 'later still' }).expect(200);
    expect(cutoffOf(before)).toBe(future);
    expect(cutoffOf(changed.body.access_token)).toBe(future + 1);
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
    // One cached by a gateway, one not cached yet.
    await h.inspect.set(keys.patCache(hashPat(pats[0]!.token)), JSON.stringify({ active: true }), 'EX', 60);
    const bystander = await registerUser(h.app);
    const bystanderPat = await createPat(h.app, bystander.id, { name: 'stays' });

    const res = await request(h.app).delete('/api/v1/auth/me').set(asJwtUser(user.id)).expect(200);
    expect(res.body).toEqual({ message: 'account deleted' });

    // PATs: inactive, an "inactive" tombstone in the gateway's cache (outliving any active entry), rows gone.
    for (const pat of pats) {
      await request(h.app).post('/internal/introspect').set(internalHeaders()).send({ token: pat.token }).expect(200, { active: false });
      expect(JSON.parse((await h.inspect.get(keys.patCache(hashPat(pat.token))))!)).toEqual({ active: false });
      expect(await h.inspect.ttl(keys.patCache(hashPat(pat.token)))).toBeGreaterThan(PAT_CACHE_TTL_SECONDS);
    }
    expect(await h.auth.repositories.tokens.model.countDocuments({ userId: user.id })).toBe(0);
    // JWTs: the user is marked deleted in Redis (whatever cut-off a JWT carries); the fallback endpoint says so too.
    expect(cutoffOf(jwtBefore)).toBe(0);
    expect(await h.inspect.get(keys.jwtCutoff(user.id))).toBe(USER_DELETED_CUTOFF);
    expect(await h.inspect.pttl(keys.jwtCutoff(user.id))).toBeGreaterThan(3600_000);
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
