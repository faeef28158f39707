import { isPatReintrospectMarker, PAT_INVALID_CACHE_TTL_SECONDS, PAT_TOMBSTONE_TTL_SECONDS, patReintrospectMarker, redisKeys, USER_DELETED_CUTOFF } from '@mt/contracts';
import { SCOPES, generatePat, hashPat } from '@mt/tokens';
import request from 'supertest';
import { counterValue, startTestGateway, type TestGateway } from '../../test/gateway';
import { AUDIENCE, createSigningKey, forgeJwt, signJwt, standardClaims, type SigningKey } from '../../test/keys';
import { StaticRouteTable } from '../../test/static-route-table';
import {
  activePat,
  startEchoUpstream,
  startFakeAuthService,
  type EchoBody,
  type EchoUpstream,
  type FakeAuthService,
} from '../../test/upstreams';

const expect401 = (res: request.Response, error: string) => {
  expect(res.status).toBe(401);
  expect(res.body).toEqual({
    error,
    status: 401,
    code: 'unauthorized',
    timestamp: expect.any(String),
    request_id: res.headers['x-request-id'],
  });
  expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('gateway authentication', () => {
  let k1: SigningKey;
  let auth: FakeAuthService;
  let movies: EchoUpstream;
  let routeTable: StaticRouteTable;
  let gateway: TestGateway;

  beforeAll(async () => {
    k1 = createSigningKey('k1');
    [auth, movies] = await Promise.all([startFakeAuthService([k1]), startEchoUpstream('movies-1')]);
    routeTable = new StaticRouteTable().setInstances('movies', [{ id: 'm1', url: movies.url }]);
    gateway = await startTestGateway({ routeTable, authUrl: auth.url, jwks: { minRefetchIntervalMs: 1000 } });
  });

  afterAll(async () => {
    await gateway.close();
    await Promise.all([auth.close(), movies.close()]);
  });

  describe('JWT', () => {
    it('accepts a valid JWT and forwards the signed identity with every scope its role allows', async () => {
      const token = signJwt(k1, { sub: 'user-jwt', jti: 'jti-1' });
      const res = await request(gateway.app).get('/api/v1/auth/me').set('Authorization', `Bearer ${token}`);
      expect(res.status).toBe(200);
      expect((res.body as EchoBody).identity).toEqual({ userId: 'user-jwt', authType: 'jwt', scopes: SCOPES.filter((scope) => scope !== 'catalog:moderate'), tokenId: 'jti-1' });
    });

    it('gives catalog:moderate only to a JWT whose role claim is moderator or admin, and rejects an unknown role', async () => {
      for (const [role, moderate] of [['moderator', true], ['admin', true], ['user', false]] as const) {
        const token = signJwt(k1, { sub: `user-${role}`, jti: `jti-${role}`, extra: { role } });
        const res = await request(gateway.app).get('/api/v1/auth/me').set('Authorization', `Bearer ${token}`);
        expect(res.status).toBe(200);
        expect((res.body as EchoBody).identity?.scopes.includes('catalog:moderate')).toBe(moderate);
      }
      const forged = signJwt(k1, { extra: { role: 'superuser' } });
      expect((await request(gateway.app).get('/api/v1/auth/me').set('Authorization', `Bearer ${forged}`)).status).toBe(401);
    });

    it('rejects an expired JWT with 401', async () => {
      const token = signJwt(k1, { iatMs: Date.now() - 7_200_000, expiresInSeconds: 3600 });
      expect401(await request(gateway.app).get('/api/v1/auth/me').set('Authorization', `Bearer ${token}`), 'token expired');
    });

    it('rejects alg "none" with 401', async () => {
      const token = forgeJwt({ alg: 'none', typ: 'JWT', kid: 'k1' }, standardClaims());
      expect401(await request(gateway.app).get('/api/v1/auth/me').set('Authorization', `Bearer ${token}`), 'invalid token');
    });

    it('rejects HS256 signed with the public key as the secret with 401', async () => {
      const pem = k1.publicKey.export({ format: 'pem', type: 'spki' });
      for (const secret of [pem, JSON.stringify(k1.jwk), k1.jwk.x]) {
        const token = forgeJwt({ alg: 'HS256', typ: 'JWT', kid: 'k1' }, standardClaims(), secret);
        expect401(await request(gateway.app).get('/api/v1/auth/me').set('Authorization', `Bearer ${token}`), 'invalid token');
      }
    });

    it('rejects a wrong audience or a wrong issuer with 401', async () => {
      const wrongAudience = signJwt(k1, { audience: 'another-api' });
      const wrongIssuer = signJwt(k1, { issuer: 'someone-else' });
      expect401(await request(gateway.app).get('/api/v1/auth/me').set('Authorization', `Bearer ${wrongAudience}`), 'invalid token');
      expect401(await request(gateway.app).get('/api/v1/auth/me').set('Authorization', `Bearer ${wrongIssuer}`), 'invalid token');
    });

    it('rejects a bad signature with 401 (other key under a known kid, or a tampered payload)', async () => {
      const impostor = createSigningKey('k1');
      const otherKey = signJwt(impostor, { kid: 'k1' });
      const [header, , signature] = signJwt(k1, { sub: 'user-a' }).split('.');
      const tamperedPayload = Buffer.from(JSON.stringify({ ...standardClaims('admin') })).toString('base64url');
      for (const token of [otherKey, `${header}.${tamperedPayload}.${signature}`]) {
        expect401(await request(gateway.app).get('/api/v1/auth/me').set('Authorization', `Bearer ${token}`), 'invalid token');
      }
    });

    it('rejects an unknown kid with 401, refetching the JWKS at most once per interval', async () => {
      await request(gateway.app).get('/api/v1/auth/me').set('Authorization', `Bearer ${signJwt(k1)}`).expect(200);
      await sleep(1050);
      const fetchesBefore = auth.calls.jwks;
      for (let i = 0; i < 5; i += 1) {
        const stranger = createSigningKey(`unknown-${i}`);
        expect401(await request(gateway.app).get('/api/v1/auth/me').set('Authorization', `Bearer ${signJwt(stranger)}`), 'invalid token');
      }
      expect(auth.calls.jwks - fetchesBefore).toBe(1);
    });

    it('accepts a key the auth service starts publishing (rotation) after the refetch interval', async () => {
      const k2 = createSigningKey('k2');
      auth.keys.push(k2);
      await sleep(1050);
      const res = await request(gateway.app).get('/api/v1/auth/me').set('Authorization', `Bearer ${signJwt(k2, { sub: 'rotated' })}`);
      expect(res.status).toBe(200);
      expect((res.body as EchoBody).identity?.userId).toBe('rotated');
    });

    it('rejects a JWT without iat_ms, cutoff_ms, sub or jti with 401', async () => {
      const now = Date.now();
      const base = { iat: Math.floor(now / 1000), exp: Math.floor(now / 1000) + 600, iss: 'media-tracker', aud: AUDIENCE };
      const jwt = await import('jsonwebtoken');
      for (const claims of [
        { ...base, sub: 'u', jti: 'j', cutoff_ms: 0 },
        { ...base, sub: 'u', jti: 'j', iat_ms: now },
        { ...base, sub: 'u', jti: 'j', iat_ms: now, cutoff_ms: -1 },
        { ...base, sub: 'u', jti: 'j', iat_ms: now, cutoff_ms: '0' },
        { ...base, jti: 'j', iat_ms: now, cutoff_ms: 0 },
        { ...base, sub: 'u', iat_ms: now, cutoff_ms: 0 },
      ]) {
        const token = jwt.default.sign(claims, k1.privateKey, { algorithm: 'ES256', keyid: 'k1' });
        expect401(await request(gateway.app).get('/api/v1/auth/me').set('Authorization', `Bearer ${token}`), 'invalid token');
      }
    });

    it('rejects a JWT minted under an earlier cut-off than the user\'s, whenever it was issued, and accepts one minted under it', async () => {
      const cutoff = Date.now() - 60_000;
      await gateway.redis.set(redisKeys(gateway.prefix).jwtCutoff('user-cut'), String(cutoff));
      // Issued after the change by the clock, but minted from the credentials before it (a login racing the change).
      const older = signJwt(k1, { sub: 'user-cut', cutoffMs: cutoff - 1 });
      const never = signJwt(k1, { sub: 'user-cut', cutoffMs: 0 });
      const current = signJwt(k1, { sub: 'user-cut', cutoffMs: cutoff, iatMs: cutoff - 10 });
      expect401(await request(gateway.app).get('/api/v1/auth/me').set('Authorization', `Bearer ${older}`), 'invalid token');
      expect401(await request(gateway.app).get('/api/v1/auth/me').set('Authorization', `Bearer ${never}`), 'invalid token');
      await request(gateway.app).get('/api/v1/auth/me').set('Authorization', `Bearer ${current}`).expect(200);
    });

    it('rejects every JWT of a deleted user, whatever cut-off it carries', async () => {
      await gateway.redis.set(redisKeys(gateway.prefix).jwtCutoff('user-gone'), USER_DELETED_CUTOFF);
      for (const cutoffMs of [0, Date.now(), Date.now() + 3600_000]) {
        const token = signJwt(k1, { sub: 'user-gone', cutoffMs });
        expect401(await request(gateway.app).get('/api/v1/movies/list').set('Authorization', `Bearer ${token}`), 'invalid token');
      }
    });
  });

  describe('PAT', () => {
    const cacheKey = (token: string) => redisKeys(gateway.prefix).patCache(hashPat(token));

    it('introspects once, then verifies from the cache without calling the auth service', async () => {
      const pat = generatePat();
      auth.tokens.set(pat, activePat('user-pat', ['profile:read'], 'pat-a'));
      const before = auth.calls.introspect;
      const hitsBefore = await counterValue(gateway.metrics, 'gateway_pat_cache_lookups_total', { result: 'hit' });

      const first = await request(gateway.app).get('/api/v1/auth/me').set('Authorization', `Bearer ${pat}`);
      expect(first.status).toBe(200);
      expect((first.body as EchoBody).identity).toEqual({ userId: 'user-pat', authType: 'pat', scopes: ['profile:read'], tokenId: 'pat-a' });
      expect(auth.calls.introspect - before).toBe(1);
      const ttl = await gateway.redis.ttl(cacheKey(pat));
      expect(ttl).toBeGreaterThan(50);
      expect(ttl).toBeLessThanOrEqual(60);

      for (let i = 0; i < 3; i += 1) {
        await request(gateway.app).get('/api/v1/auth/me').set('Authorization', `Bearer ${pat}`).expect(200);
      }
      expect(auth.calls.introspect - before).toBe(1);
      expect(await counterValue(gateway.metrics, 'gateway_pat_cache_lookups_total', { result: 'hit' })).toBe(hitsBefore + 3);
    });

    it('never caches a PAT past its expiry', async () => {
      const pat = generatePat();
      auth.tokens.set(pat, activePat('user-soon', ['profile:read'], 'pat-soon', 5_000));
      await request(gateway.app).get('/api/v1/auth/me').set('Authorization', `Bearer ${pat}`).expect(200);
      const ttl = await gateway.redis.ttl(cacheKey(pat));
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(5);
    });

    it('rejects a revoked PAT on the very next request', async () => {
      const pat = generatePat();
      auth.tokens.set(pat, activePat('user-rev', ['profile:read'], 'pat-rev'));
      await request(gateway.app).get('/api/v1/auth/me').set('Authorization', `Bearer ${pat}`).expect(200);
      expect(await gateway.redis.exists(cacheKey(pat))).toBe(1);

      // What the auth service does on revocation: mark it inactive and write an "inactive" tombstone.
      auth.tokens.set(pat, { active: false });
      await gateway.redis.set(cacheKey(pat), JSON.stringify({ active: false }), 'EX', PAT_TOMBSTONE_TTL_SECONDS);

      expect401(await request(gateway.app).get('/api/v1/auth/me').set('Authorization', `Bearer ${pat}`), 'invalid token');
    });

    it('does not let an introspection answered before a revocation overwrite the revocation\'s tombstone', async () => {
      const pat = generatePat();
      auth.tokens.set(pat, activePat('user-late', ['profile:read'], 'pat-late'));
      auth.delays.introspectMs = 300;
      try {
        // Nothing cached: this request introspects, and the answer ("active") is read at once but arrives late.
        const inFlight = request(gateway.app).get('/api/v1/auth/me').set('Authorization', `Bearer ${pat}`);
        const answered = inFlight.then((res) => res.status);
        await sleep(100);
        auth.tokens.set(pat, { active: false });
        await gateway.redis.set(cacheKey(pat), JSON.stringify({ active: false }), 'EX', PAT_TOMBSTONE_TTL_SECONDS);
        expect(await answered).toBe(200); // sent before the revocation answered: may pass
      } finally {
        auth.delays.introspectMs = 0;
      }
      expect(JSON.parse((await gateway.redis.get(cacheKey(pat)))!)).toEqual({ active: false });
      expect401(await request(gateway.app).get('/api/v1/auth/me').set('Authorization', `Bearer ${pat}`), 'invalid token');
    });

    it('answers a PAT whose role was taken away with its reduced scopes on the next request: a re-introspect marker is a miss, not a revocation', async () => {
      const pat = generatePat();
      auth.tokens.set(pat, activePat('user-demoted', ['profile:read', 'catalog:moderate'], 'pat-demoted'));
      await request(gateway.app).get('/api/v1/auth/me').set('Authorization', `Bearer ${pat}`).expect(200);
      // What the auth service does when the role is removed: introspection drops the scope, the cache entry gets the marker.
      auth.tokens.set(pat, activePat('user-demoted', ['profile:read'], 'pat-demoted'));
      await gateway.redis.set(cacheKey(pat), patReintrospectMarker('role-change-1'), 'EX', PAT_TOMBSTONE_TTL_SECONDS);
      const before = auth.calls.introspect;

      const next = await request(gateway.app).get('/api/v1/auth/me').set('Authorization', `Bearer ${pat}`);
      expect(next.status).toBe(200);
      expect((next.body as EchoBody).identity).toEqual({ userId: 'user-demoted', authType: 'pat', scopes: ['profile:read'], tokenId: 'pat-demoted' });
      expect(auth.calls.introspect - before).toBe(1);
      // Answers are cached only where nothing is: the marker stays, so an answer older than the change can never replace it.
      expect(isPatReintrospectMarker((await gateway.redis.get(cacheKey(pat)))!)).toBe(true);
      await request(gateway.app).get('/api/v1/auth/me').set('Authorization', `Bearer ${pat}`).expect(200);
      expect(auth.calls.introspect - before).toBe(2);
    });

    it('caches an inactive answer briefly, so repeated bad tokens do not hammer the auth service', async () => {
      const pat = generatePat();
      const before = auth.calls.introspect;
      for (let i = 0; i < 3; i += 1) {
        expect401(await request(gateway.app).get('/api/v1/auth/me').set('Authorization', `Bearer ${pat}`), 'invalid token');
      }
      expect(auth.calls.introspect - before).toBe(1);
      const ttl = await gateway.redis.ttl(cacheKey(pat));
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(PAT_INVALID_CACHE_TTL_SECONDS);
    });

    it('rejects a malformed PAT without any Redis command or auth-service call', async () => {
      // Counted where the gateway's client sends every command (pipelines and scripts too). A MONITOR connection,
      // used before, failed now and then: ioredis meets monitor lines that arrive with MONITOR's own OK (here the
      // rate limiter's sync) before it has switched that connection to monitor mode ("Command queue state error").
      const sent = jest.spyOn(gateway.redis, 'sendCommand');
      const authCommands = () =>
        sent.mock.calls
          .map(([command]) => [command.name, ...command.args.map(String)])
          .filter((args) => args.some((arg) => arg.includes(`${gateway.prefix}auth:`)));
      try {
        // Control: a well-formed (unknown) PAT is looked up in Redis, and the count sees it.
        await request(gateway.app).get('/api/v1/auth/me').set('Authorization', `Bearer ${generatePat()}`).expect(401);
        expect(authCommands().some(([command]) => command?.toLowerCase() === 'get')).toBe(true);
        sent.mockClear();

        const valid = generatePat();
        const badChecksum = `${valid.slice(0, -1)}${valid.endsWith('0') ? '1' : '0'}`;
        const malformed = [badChecksum, 'mtp_short', `${valid}x`, 'mtp_' + '!'.repeat(38)];
        const introspectionsBefore = auth.calls.introspect;
        for (const token of malformed) {
          expect401(await request(gateway.app).get('/api/v1/auth/me').set('Authorization', `Bearer ${token}`), 'invalid token');
        }
        expect(authCommands()).toEqual([]);
        expect(auth.calls.introspect).toBe(introspectionsBefore);
      } finally {
        sent.mockRestore();
      }
    });
  });

  describe('scopes and public endpoints', () => {
    it('answers 403 naming the missing scope', async () => {
      const pat = generatePat();
      auth.tokens.set(pat, activePat('user-scope', ['profile:read', 'list:read'], 'pat-scope'));
      const cases: Array<[string, string, string]> = [
        ['post', '/api/v1/movies', 'catalog:write'],
        ['patch', '/api/v1/movies/abc', 'catalog:write'],
        ['post', '/api/v1/movies/list', 'list:write'],
        ['delete', '/api/v1/movies/list/abc', 'list:write'],
        ['post', '/api/v1/movies/bulk-status', 'list:write'],
        ['put', '/api/v1/auth/password', 'account'],
        ['get', '/api/v1/auth/tokens', 'account'],
      ];
      const before = movies.requests();
      for (const [method, path, scope] of cases) {
        const res = await request(gateway.app)[method as 'post'](path).set('Authorization', `Bearer ${pat}`).send({});
        expect(res.status).toBe(403);
        expect(res.body).toEqual({
          error: `token lacks the '${scope}' scope`,
          status: 403,
          code: 'forbidden',
          timestamp: expect.any(String),
          request_id: res.headers['x-request-id'],
        });
      }
      expect(movies.requests()).toBe(before);
      await request(gateway.app).get('/api/v1/movies/list').set('Authorization', `Bearer ${pat}`).expect(200);
    });

    it('answers 401 on a protected endpoint without a credential, or with a non-Bearer one', async () => {
      expect401(await request(gateway.app).get('/api/v1/movies/list'), 'authentication required');
      expect401(
        await request(gateway.app).get('/api/v1/movies/list').set('Authorization', 'Basic dXNlcjpwYXNz'),
        'expected Authorization: Bearer <token>',
      );
    });

    it('ignores a valid credential on a public endpoint but rejects an invalid one', async () => {
      await request(gateway.app).get('/api/v1/movies').expect(200);
      await request(gateway.app).get('/api/v1/movies/abc').set('Authorization', `Bearer ${signJwt(k1)}`).expect(200);
      expect401(await request(gateway.app).get('/api/v1/movies').set('Authorization', 'Bearer not.a.jwt'), 'invalid token');
      expect401(await request(gateway.app).post('/api/v1/auth/login').set('Authorization', `Bearer ${generatePat()}x`).send({}), 'invalid token');
    });
  });
});

describe('gateway authentication while Redis is down', () => {
  let k1: SigningKey;
  let auth: FakeAuthService;
  let movies: EchoUpstream;
  let gateway: TestGateway;

  beforeAll(async () => {
    k1 = createSigningKey('k1');
    [auth, movies] = await Promise.all([startFakeAuthService([k1]), startEchoUpstream('movies-1')]);
    const routeTable = new StaticRouteTable().setInstances('movies', [{ id: 'm1', url: movies.url }]);
    gateway = await startTestGateway({ routeTable, authUrl: auth.url, redisDown: true });
  });

  afterAll(async () => {
    await gateway.close();
    await Promise.all([auth.close(), movies.close()]);
  });

  it('keeps JWTs working through the auth service\'s cut-off answer', async () => {
    const before = auth.calls.cutoff;
    const res = await request(gateway.app).get('/api/v1/movies/list').set('Authorization', `Bearer ${signJwt(k1, { sub: 'u1' })}`);
    expect(res.status).toBe(200);
    expect(auth.calls.cutoff - before).toBe(1);

    const cutoff = Date.now();
    auth.cutoffs.set('u2', { exists: true, cutoff_ms: cutoff });
    expect401(await request(gateway.app).get('/api/v1/movies/list').set('Authorization', `Bearer ${signJwt(k1, { sub: 'u2', cutoffMs: cutoff - 5 })}`), 'invalid token');
    await request(gateway.app).get('/api/v1/movies/list').set('Authorization', `Bearer ${signJwt(k1, { sub: 'u2', cutoffMs: cutoff })}`).expect(200);

    auth.cutoffs.set('gone', { exists: false, cutoff_ms: null });
    expect401(await request(gateway.app).get('/api/v1/movies/list').set('Authorization', `Bearer ${signJwt(k1, { sub: 'gone' })}`), 'invalid token');
  });

  it('verifies PATs by introspection on every request (nothing can be cached)', async () => {
    const pat = generatePat();
    auth.tokens.set(pat, activePat('u3', ['list:read'], 'pat-3'));
    const before = auth.calls.introspect;
    for (let i = 0; i < 3; i += 1) {
      await request(gateway.app).get('/api/v1/movies/list').set('Authorization', `Bearer ${pat}`).expect(200);
    }
    expect(auth.calls.introspect - before).toBe(3);
  });

  it('fails closed with 503 when the auth service is down too, but still serves public endpoints', async () => {
    const pat = generatePat();
    auth.tokens.set(pat, activePat('u4', ['list:read'], 'pat-4'));
    const jwt = signJwt(k1, { sub: 'u4' });
    await auth.close();

    for (const credential of [pat, jwt]) {
      const res = await request(gateway.app).get('/api/v1/movies/list').set('Authorization', `Bearer ${credential}`);
      expect(res.status).toBe(503);
      expect(res.body).toEqual({
        error: 'authentication is temporarily unavailable',
        status: 503,
        code: 'service_unavailable',
        timestamp: expect.any(String),
        request_id: res.headers['x-request-id'],
      });
    }
    // A public read does not depend on who is asking: the unverifiable credential is ignored.
    const publicRead = await request(gateway.app).get('/api/v1/movies').set('Authorization', `Bearer ${pat}`);
    expect(publicRead.status).toBe(200);
    expect((publicRead.body as EchoBody).identity).toBeNull();
  });
});
