import request from 'supertest';
import { newUserData, registerUser, startAuthHarness, type AuthHarness } from '../../test/auth-harness';
import { asJwtUser, asPatUser, identityHeaders } from '../../test/identity-headers';
import { UserSchema } from './users.schemas';

describe('accounts: register and profile', () => {
  let h: AuthHarness;
  beforeAll(async () => {
    h = await startAuthHarness();
  });
  afterAll(() => h.close());

  describe('POST /api/v1/auth/register', () => {
    it('creates a user and answers 201 with the user object (no hash, email lower-cased, username case kept)', async () => {
      const data = { ...newUserData('Reg'), email: 'Mixed.Case@Example.COM' };
      const res = await request(h.app).post('/api/v1/auth/register').send(data).expect(201);
      expect(UserSchema.strict().parse(res.body)).toEqual({
        id: expect.stringMatching(/^[0-9a-f]{24}$/),
        username: data.username,
        email: 'mixed.case@example.com',
        role: 'user',
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        updated_at: res.body.created_at,
      });
    });

    it('rejects a username taken in another letter case with 409', async () => {
      const taken = await registerUser(h.app);
      const res = await request(h.app)
        .post('/api/v1/auth/register')
        .send({ ...newUserData(), username: taken.username.toUpperCase() })
        .expect(409);
      expect(res.body).toMatchObject({ status: 409, code: 'conflict', error: 'username already taken' });
    });

    it('rejects an email taken in another letter case with 409', async () => {
      const taken = await registerUser(h.app);
      const res = await request(h.app)
        .post('/api/v1/auth/register')
        .send({ ...newUserData(), email: taken.email.toUpperCase() })
        .expect(409);
      expect(res.body).toMatchObject({ status: 409, code: 'conflict', error: 'email already registered' });
    });

    it('lets exactly one of two concurrent registrations of one username succeed', async () => {
      const a = newUserData('race');
      const b = { ...newUserData('race'), username: a.username.toUpperCase() };
      const results = await Promise.all([a, b].map((data) => request(h.app).post('/api/v1/auth/register').send(data)));
      expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
      expect(results.find((r) => r.status === 409)?.body.error).toBe('username already taken');
      expect(await h.auth.repositories.users.model.countDocuments({ usernameLower: a.username.toLowerCase() })).toBe(1);
    });

    it('rejects invalid and unknown fields with 400 listing every field, and stores nothing', async () => {
      const res = await request(h.app)
        .post('/api/v1/auth/register')
        .send({ username: 'a b', email: 'not-an-email', password: 'short', role: 'admin' })
        .expect(400);
      expect(res.body).toMatchObject({ status: 400, code: 'validation_failed', error: 'request body is invalid' });
      const paths = (res.body.details as Array<{ path: string }>).map((d) => d.path).sort();
      expect(paths).toEqual(['email', 'password', 'role', 'username']);
      expect(await h.auth.repositories.users.model.countDocuments({ usernameLower: 'a b' })).toBe(0);
    });

    it('rejects a missing body with 400 naming the missing fields', async () => {
      const res = await request(h.app).post('/api/v1/auth/register').expect(400);
      expect((res.body.details as Array<{ path: string }>).map((d) => d.path).sort()).toEqual(['email', 'password', 'username']);
    });

    it('enforces the length limits of username (3–32), email (≤ 254) and password (8–128)', async () => {
      const base = newUserData();
      const emailOf = (length: number) => `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(length - 197)}.com`;
      for (const [field, body] of [
        ['username', { ...base, username: 'ab' }],
        ['username', { ...base, username: 'a'.repeat(33) }],
        ['email', { ...base, email: emailOf(255) }],
        ['password', { ...base, password: 'x'.repeat(7) }],
        ['password', { ...base, password: 'x'.repeat(129) }],
      ] as const) {
        const res = await request(h.app).post('/api/v1/auth/register').send(body);
        expect({ status: res.status, code: res.body.code, paths: res.body.details.map((d: { path: string }) => d.path) }).toEqual({
          status: 400,
          code: 'validation_failed',
          paths: [field],
        });
      }
      const longest = { username: `u${base.username}`.padEnd(32, 'x'), email: emailOf(254), password: 'x'.repeat(128) };
      const created = await request(h.app).post('/api/v1/auth/register').send(longest).expect(201);
      expect(created.body.email).toHaveLength(254);
    });
  });

  describe('GET /api/v1/auth/me', () => {
    it('answers 200 with the user for a JWT identity', async () => {
      const user = await registerUser(h.app);
      const res = await request(h.app).get('/api/v1/auth/me').set(asJwtUser(user.id)).expect(200);
      expect(UserSchema.strict().parse(res.body)).toMatchObject({ id: user.id, username: user.username, email: user.email });
    });

    it('answers 401 for an anonymous request', async () => {
      const res = await request(h.app).get('/api/v1/auth/me').expect(401);
      expect(res.body).toMatchObject({ status: 401, code: 'unauthorized' });
    });

    it('answers 401 for identity headers not signed with the internal secret', async () => {
      const user = await registerUser(h.app);
      const forged = identityHeaders({ userId: user.id, authType: 'jwt', scopes: ['profile:read'], tokenId: 'x' }, 'another-secret-of-at-least-32-characters');
      const res = await request(h.app).get('/api/v1/auth/me').set(forged).expect(401);
      expect(res.body).toMatchObject({ code: 'unauthorized', error: 'invalid identity signature' });
    });

    it('answers 403 naming the scope for a PAT without profile:read', async () => {
      const user = await registerUser(h.app);
      const res = await request(h.app).get('/api/v1/auth/me').set(asPatUser(user.id, ['list:read'])).expect(403);
      expect(res.body).toMatchObject({ status: 403, code: 'forbidden', error: "token lacks the 'profile:read' scope" });
    });

    it('answers 401 when the user no longer exists', async () => {
      const user = await registerUser(h.app);
      await h.auth.repositories.users.delete(user.id);
      const res = await request(h.app).get('/api/v1/auth/me').set(asJwtUser(user.id)).expect(401);
      expect(res.body).toMatchObject({ code: 'unauthorized', error: 'the account no longer exists' });
    });
  });

  describe('PUT /api/v1/auth/me', () => {
    it('updates username and email and answers 200 with the updated user', async () => {
      const user = await registerUser(h.app);
      const next = newUserData('Renamed');
      const res = await request(h.app)
        .put('/api/v1/auth/me')
        .set(asJwtUser(user.id))
        .send({ username: next.username, email: next.email.toUpperCase() })
        .expect(200);
      expect(res.body).toMatchObject({ id: user.id, username: next.username, email: next.email.toLowerCase() });
      expect(Date.parse(res.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(res.body.created_at));
    });

    it('accepts your own username in another case as no conflict', async () => {
      const user = await registerUser(h.app);
      const res = await request(h.app).put('/api/v1/auth/me').set(asJwtUser(user.id)).send({ username: user.username.toUpperCase() }).expect(200);
      expect(res.body.username).toBe(user.username.toUpperCase());
    });

    it("rejects another user's username or email in any case with 409 and changes nothing", async () => {
      const [user, other] = [await registerUser(h.app), await registerUser(h.app)];
      const byName = await request(h.app).put('/api/v1/auth/me').set(asJwtUser(user.id)).send({ username: other.username.toUpperCase() }).expect(409);
      expect(byName.body).toMatchObject({ code: 'conflict', error: 'username already taken' });
      const byEmail = await request(h.app).put('/api/v1/auth/me').set(asJwtUser(user.id)).send({ email: other.email.toUpperCase() }).expect(409);
      expect(byEmail.body).toMatchObject({ code: 'conflict', error: 'email already registered' });
      const me = await request(h.app).get('/api/v1/auth/me').set(asJwtUser(user.id)).expect(200);
      expect(me.body).toMatchObject({ username: user.username, email: user.email });
    });

    it('rejects an empty body and unknown fields with 400', async () => {
      const user = await registerUser(h.app);
      const empty = await request(h.app).put('/api/v1/auth/me').set(asJwtUser(user.id)).send({}).expect(400);
      expect(empty.body.details).toEqual([{ path: '', message: 'give at least one of username, email' }]);
      const unknown = await request(h.app).put('/api/v1/auth/me').set(asJwtUser(user.id)).send({ username: 'valid_name', password: 'x' }).expect(400);
      expect(unknown.body.details).toEqual([{ path: 'password', message: 'unknown field' }]);
    });

    it('needs the account scope (403) and a caller (401)', async () => {
      const user = await registerUser(h.app);
      const forbidden = await request(h.app).put('/api/v1/auth/me').set(asPatUser(user.id, ['profile:read'])).send({ username: 'whatever' }).expect(403);
      expect(forbidden.body.error).toBe("token lacks the 'account' scope");
      await request(h.app).put('/api/v1/auth/me').send({ username: 'whatever' }).expect(401);
    });
  });

  it('answers 405 with Allow for a wrong method on a known path', async () => {
    const res = await request(h.app).patch('/api/v1/auth/me').expect(405);
    expect(res.headers['allow']).toBe('GET, PUT, DELETE, HEAD');
    expect(res.body.code).toBe('method_not_allowed');
  });
});
