// One end-to-end check against the real auth service (the built app as its own process, on its own
// MongoDB database and Redis namespace), so the gateway's verification is proven against what the auth
// service really signs, caches and revokes. Everything else in the gateway's tests uses a small stand-in
// auth server.
import request from 'supertest';
import { startTestGateway, type TestGateway } from '../test/gateway';
import { TEST_SECRET } from '../test/keys';
import { startAuthProcess, type ServiceUnderTest } from '../test/service-processes';
import { StaticRouteTable } from '../test/static-route-table';
import { startEchoUpstream, type EchoBody, type EchoUpstream } from '../test/upstreams';

let users = 0;
/** Registration data of a user no other run has. */
function newUserData(label: string) {
  users += 1;
  const suffix = `${process.pid.toString(36)}${Date.now().toString(36)}${users}`;
  return { username: `${label}_${suffix}`.slice(0, 32), email: `${label}.${suffix}@example.com`, password: `pass-${suffix}-secret` };
}

describe('gateway in front of the real auth service', () => {
  let auth: ServiceUnderTest;
  let movies: EchoUpstream;
  let gateway: TestGateway;

  beforeAll(async () => {
    auth = await startAuthProcess({ secret: TEST_SECRET });
    movies = await startEchoUpstream('movies-1', TEST_SECRET);
    const routeTable = new StaticRouteTable().setInstances('movies', [{ id: 'm1', url: movies.url }]);
    // Same Redis namespace: the auth service writes the cut-offs and evicts the PAT cache entries there.
    gateway = await startTestGateway({ routeTable, authUrl: auth.url, prefix: auth.prefix });
  }, 90_000);

  afterAll(async () => {
    await gateway?.close();
    await movies?.close();
    await auth?.stop();
  }, 30_000);

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
