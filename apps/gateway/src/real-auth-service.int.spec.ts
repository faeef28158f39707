// One end-to-end check against the real auth service (its own test harness: MongoDB + Redis), so the
// gateway's verification is proven against what the auth service really signs, caches and revokes.
// Everything else in the gateway's tests uses a small stand-in auth server.
import request from 'supertest';
import { newUserData, startAuthHarness, type AuthHarness } from '../../auth-service/test/auth-harness';
import { TEST_SECRET as AUTH_TEST_SECRET } from '../../auth-service/test/identity-headers';
import { startTestGateway, type TestGateway } from '../test/gateway';
import { startHttpServer, type RunningServer } from '../test/servers';
import { StaticRouteTable } from '../test/static-route-table';
import { startEchoUpstream, type EchoBody, type EchoUpstream } from '../test/upstreams';

describe('gateway in front of the real auth service', () => {
  let auth: AuthHarness;
  let authServer: RunningServer;
  let movies: EchoUpstream;
  let gateway: TestGateway;

  beforeAll(async () => {
    auth = await startAuthHarness();
    [authServer, movies] = await Promise.all([startHttpServer(auth.app), startEchoUpstream('movies-1', AUTH_TEST_SECRET)]);
    const routeTable = new StaticRouteTable().setInstances('movies', [{ id: 'm1', url: movies.url }]);
    // Same Redis namespace: the auth service writes the cut-offs and evicts the PAT cache entries there.
    gateway = await startTestGateway({
      routeTable,
      authUrl: authServer.url,
      prefix: auth.prefix,
      env: { INTERNAL_SECRET: AUTH_TEST_SECRET },
    });
  }, 60_000);

  afterAll(async () => {
    await gateway?.close();
    await Promise.all([authServer?.close(), movies?.close()]);
    await auth?.close();
  });

  it('logs in, uses and revokes a PAT, and cuts off old JWTs on a password change', async () => {
    const user = newUserData('gw');
    const registered = await request(gateway.app).post('/api/v1/auth/register').send(user);
    expect(registered.status).toBe(201);
    const userId = registered.body.id as string;

    const login = await request(gateway.app).post('/api/v1/auth/login').send({ username: user.username, password: user.password });
    expect(login.status).toBe(200);
    const jwt = login.body.access_token as string;
    const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

    const me = await request(gateway.app).get('/api/v1/auth/me').set(bearer(jwt));
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: userId, username: user.username });

    const created = await request(gateway.app).post('/api/v1/auth/tokens').set(bearer(jwt)).send({ name: 'cli', scopes: ['list:read'] });
    expect(created.status).toBe(201);
    const pat = created.body.token as string;

    const list = await request(gateway.app).get('/api/v1/movies/list').set(bearer(pat));
    expect(list.status).toBe(200);
    expect((list.body as EchoBody).identity).toEqual({ userId, authType: 'pat', scopes: ['list:read'], tokenId: created.body.id });
    const forbidden = await request(gateway.app).get('/api/v1/auth/me').set(bearer(pat));
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error).toBe("token lacks the 'profile:read' scope");

    await request(gateway.app).delete(`/api/v1/auth/tokens/${created.body.id as string}`).set(bearer(jwt)).expect(200);
    const revoked = await request(gateway.app).get('/api/v1/movies/list').set(bearer(pat));
    expect(revoked.status).toBe(401);

    const changed = await request(gateway.app)
      .put('/api/v1/auth/password')
      .set(bearer(jwt))
      .send({ current_password: user.password, new_password: `${user.password}-2` });
    expect(changed.status).toBe(200);
    const oldJwt = await request(gateway.app).get('/api/v1/auth/me').set(bearer(jwt));
    expect(oldJwt.status).toBe(401);
    await request(gateway.app).get('/api/v1/auth/me').set(bearer(changed.body.access_token as string)).expect(200);
  }, 60_000);
});
