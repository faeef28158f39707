import { redisKeys } from '@mt/contracts';
import { closedPort } from '@mt/testing';
import jwt, { type JwtPayload } from 'jsonwebtoken';
import { createPublicKey } from 'node:crypto';
import request from 'supertest';
import { registerUser, startAuthHarness, type AuthHarness } from '../../test/auth-harness';
import { asJwtUser, internalHeaders } from '../../test/identity-headers';
import { LoginResponseSchema } from './login.schemas';
import { LOCKOUT_WINDOW_MS, MAX_FAILED_LOGINS } from './login-failures.repository';
import { lockoutSubject } from './login.service';

const login = (h: AuthHarness, username: string, password: string) =>
  request(h.app).post('/api/v1/auth/login').send({ username, password });

/** The error payload without its per-request fields. */
const stable = (body: Record<string, unknown>) => ({ ...body, timestamp: undefined, request_id: undefined });

describe('login', () => {
  let h: AuthHarness;
  beforeAll(async () => {
    h = await startAuthHarness();
  });
  afterAll(() => h.close());

  it('logs in by username in any case and answers a Bearer JWT with the user', async () => {
    const user = await registerUser(h.app);
    const res = await login(h, user.username.toUpperCase(), user.password).expect(200);
    expect(LoginResponseSchema.strict().parse(res.body)).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 3600,
      user: { id: user.id, username: user.username, email: user.email, role: 'user', created_at: expect.any(String), updated_at: expect.any(String) },
    });
  });

  it('logs in by email in any case', async () => {
    const user = await registerUser(h.app);
    const res = await login(h, user.email.toUpperCase(), user.password).expect(200);
    expect(res.body.user.id).toBe(user.id);
  });

  it('issues an ES256 JWT with kid, sub, iss, aud, jti, iat, exp, iat_ms and cutoff_ms that verifies with the JWKS key', async () => {
    const user = await registerUser(h.app);
    const before = Date.now();
    const res = await login(h, user.username, user.password).expect(200);
    const after = Date.now();
    const jwks = await request(h.app).get('/internal/jwks').set(internalHeaders()).expect(200);
    const header = jwt.decode(res.body.access_token, { complete: true })?.header;
    expect(header).toMatchObject({ alg: 'ES256', kid: jwks.body.keys[0].kid });
    const publicKey = createPublicKey({ key: jwks.body.keys[0], format: 'jwk' });
    const claims = jwt.verify(res.body.access_token, publicKey, {
      algorithms: ['ES256'],
      issuer: 'media-tracker',
      audience: 'media-tracker-api',
    }) as JwtPayload & { iat_ms: number; cutoff_ms: number };
    expect(claims).toEqual({
      sub: user.id,
      iss: 'media-tracker',
      aud: 'media-tracker-api',
      jti: expect.stringMatching(/^[0-9a-f-]{36}$/),
      iat: Math.floor(claims.iat_ms / 1000),
      exp: Math.floor(claims.iat_ms / 1000) + 3600,
      iat_ms: expect.any(Number),
      cutoff_ms: 0, // the cut-off it was minted under: none yet
      role: 'user', // docs/api.md "Authentication": decides whether the JWT holds catalog:moderate
    });
    expect(claims.iat_ms).toBeGreaterThanOrEqual(before);
    expect(claims.iat_ms).toBeLessThanOrEqual(after);
  });

  it('answers one indistinguishable 401 for an unknown user and for a wrong password', async () => {
    const user = await registerUser(h.app);
    const wrongPassword = await login(h, user.username, 'not the password').expect(401);
    const unknownUser = await login(h, 'nobody_by_this_name', 'not the password').expect(401);
    expect(stable(wrongPassword.body)).toEqual(stable(unknownUser.body));
    expect(wrongPassword.body).toMatchObject({ status: 401, code: 'unauthorized', error: 'invalid username or password' });
    expect(Object.keys(wrongPassword.headers).sort()).toEqual(Object.keys(unknownUser.headers).sort());
  });

  it('takes about as long for an unknown user as for a wrong password (a dummy argon2 verification)', async () => {
    const user = await registerUser(h.app);
    await h.auth.hasher.warmUp();
    const timed = async (name: string, password: string) => {
      const start = process.hrtime.bigint();
      await login(h, name, password).expect(401);
      return Number(process.hrtime.bigint() - start) / 1e6;
    };
    // Interleaved, so a busy machine slows both kinds alike; medians ignore outliers.
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 7; i++) {
      known.push(await timed(user.username, `wrong-${i}`));
      unknown.push(await timed(`timing_nobody_${i}`, `wrong-${i}`));
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    // argon2 dominates both; without the dummy, the unknown case takes a small fraction.
    expect(median(unknown)).toBeGreaterThan(median(known) * 0.4);
    expect(median(unknown)).toBeLessThan(median(known) * 2.5);
  });

  it('rejects invalid and unknown fields with 400', async () => {
    const res = await request(h.app).post('/api/v1/auth/login').send({ username: '', password: 'x', remember: true }).expect(400);
    expect(res.body.details.map((d: { path: string }) => d.path).sort()).toEqual(['remember', 'username']);
  });

  describe('lockout', () => {
    it(`answers 429 with Retry-After after ${MAX_FAILED_LOGINS} failures, even with the right password`, async () => {
      const user = await registerUser(h.app);
      for (let i = 0; i < MAX_FAILED_LOGINS; i++) await login(h, user.username, `wrong-${i}`).expect(401);
      const locked = await login(h, user.username.toUpperCase(), user.password).expect(429);
      expect(locked.body).toMatchObject({ status: 429, code: 'rate_limited', error: 'too many failed logins; try again later' });
      const retryAfter = Number(locked.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(LOCKOUT_WINDOW_MS / 1000 - 60);
      expect(retryAfter).toBeLessThanOrEqual(LOCKOUT_WINDOW_MS / 1000);
    });

    it('locks the account, not the name typed: failures by username lock the email, and the other way round', async () => {
      const byUsername = await registerUser(h.app);
      for (let i = 0; i < MAX_FAILED_LOGINS; i++) await login(h, byUsername.username, `wrong-${i}`).expect(401);
      await login(h, byUsername.email.toUpperCase(), byUsername.password).expect(429);
      await login(h, byUsername.email, 'another guess').expect(429); // no fresh allowance of guesses by email

      const byEmail = await registerUser(h.app);
      for (let i = 0; i < MAX_FAILED_LOGINS; i++) await login(h, byEmail.email, `wrong-${i}`).expect(401);
      await login(h, byEmail.username, byEmail.password).expect(429);
    });

    it('counts failures by username and by email together', async () => {
      const user = await registerUser(h.app);
      for (let i = 0; i < MAX_FAILED_LOGINS; i++) await login(h, i % 2 ? user.email : user.username.toUpperCase(), `wrong-${i}`).expect(401);
      await login(h, user.username, user.password).expect(429);
      expect(await h.inspect.get(redisKeys(h.prefix).loginFailures(lockoutSubject(user.username, user)))).toBe(String(MAX_FAILED_LOGINS));
    });

    it('follows the account through a username change', async () => {
      const user = await registerUser(h.app);
      for (let i = 0; i < MAX_FAILED_LOGINS; i++) await login(h, user.username, `wrong-${i}`).expect(401);
      const renamed = `${user.username}_2`.slice(0, 32);
      await request(h.app).put('/api/v1/auth/me').set(asJwtUser(user.id)).send({ username: renamed }).expect(200);
      await login(h, renamed, user.password).expect(429);
    });

    it('locks an unknown username or email exactly like an existing one (lockout reveals nothing), in any case', async () => {
      for (let i = 0; i < MAX_FAILED_LOGINS; i++) await login(h, i % 2 ? 'Ghost_User' : 'ghost_user', `wrong-${i}`).expect(401);
      const res = await login(h, 'GHOST_USER', 'anything').expect(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      for (let i = 0; i < MAX_FAILED_LOGINS; i++) await login(h, 'ghost@example.com', `wrong-${i}`).expect(401);
      await login(h, 'Ghost@Example.com', 'anything').expect(429);
    });

    it('lets the window run out: Retry-After counts the seconds left in it', async () => {
      const user = await registerUser(h.app);
      const key = redisKeys(h.prefix).loginFailures(lockoutSubject(user.username, user));
      for (let i = 0; i < MAX_FAILED_LOGINS; i++) await login(h, user.username, `wrong-${i}`).expect(401);
      await h.inspect.pexpire(key, 2500);
      const res = await login(h, user.username, user.password).expect(429);
      expect(res.headers['retry-after']).toBe('3');
      await h.inspect.pexpire(key, 1);
      await new Promise((resolve) => setTimeout(resolve, 20));
      await login(h, user.username, user.password).expect(200);
    });

    it('counts failures only until a successful login', async () => {
      const user = await registerUser(h.app);
      for (let i = 0; i < MAX_FAILED_LOGINS - 1; i++) await login(h, user.username, `wrong-${i}`).expect(401);
      await login(h, user.username, user.password).expect(200);
      await login(h, user.username, 'wrong again').expect(401);
      expect(await h.inspect.get(redisKeys(h.prefix).loginFailures(lockoutSubject(user.username, user)))).toBe('1');
    });
  });

  describe('with Redis unreachable', () => {
    let down: AuthHarness;
    beforeAll(async () => {
      down = await startAuthHarness({ redisUrl: `redis://127.0.0.1:${await closedPort()}` });
    });
    afterAll(() => down.close());

    it('still logs in and still answers 401 to wrong passwords (the lockout fails open) and logs a warning', async () => {
      const user = await registerUser(down.app);
      for (let i = 0; i < MAX_FAILED_LOGINS + 1; i++) await login(down, user.username, `wrong-${i}`).expect(401);
      await login(down, user.username, user.password).expect(200);
      const warnings = down.logLines().filter((line) => line.includes('login lockout is not enforced'));
      expect(warnings).toHaveLength(1);
      expect(JSON.parse(warnings[0]!)).toMatchObject({ level: 40 });
    });

    it('serves the JWKS and the cut-off endpoint from MongoDB alone', async () => {
      const user = await registerUser(down.app);
      await request(down.app).get('/internal/jwks').set(internalHeaders()).expect(200);
      const res = await request(down.app).get(`/internal/users/${user.id}/jwt-cutoff`).set(internalHeaders()).expect(200);
      expect(res.body).toEqual({ exists: true, cutoff_ms: null });
    });
  });
});
