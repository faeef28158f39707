import { silentLogger } from '@mt/testing';
import jwt from 'jsonwebtoken';
import request from 'supertest';
import { createAuthModule } from '../auth-module';
import { newUserData, registerUser, startAuthHarness, type AuthHarness } from '../../test/auth-harness';
import { asJwtUser } from '../../test/identity-headers';

/** Racers and trials of the concurrent-registration race: 10 trials in `npm test`, more with RACE_TRIALS. */
const CROWD = 6;
const TRIALS = Number(process.env['RACE_TRIALS'] ?? 10);

const unique = () => `${process.pid.toString(36)}${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

describe('admin names (ADMIN_USERNAMES) belong to the account that claimed them', () => {
  let h: AuthHarness;
  const run = unique();
  const renamedAway = `root_${run}`;
  const deleted = `gone_${run}`;
  const neverRegistered = `boot_${run}`;
  const racedNames = Array.from({ length: TRIALS }, (_, trial) => `race${trial}_${run}`);
  beforeAll(async () => {
    h = await startAuthHarness({ env: { ADMIN_USERNAMES: [renamedAway, deleted, neverRegistered, ...racedNames].join(',') } });
  });
  afterAll(() => h.close());

  const register = (username: string) => request(h.app).post('/api/v1/auth/register').send({ ...newUserData(), username });
  const rename = (userId: string, username: string) => request(h.app).put('/api/v1/auth/me').set(asJwtUser(userId)).send({ username });
  const me = (userId: string) => request(h.app).get('/api/v1/auth/me').set(asJwtUser(userId));
  const login = (username: string, password: string) => request(h.app).post('/api/v1/auth/login').send({ username, password });
  const setRole = (callerId: string, targetId: string, role: string) =>
    request(h.app).put(`/api/v1/auth/users/${targetId}/role`).set(asJwtUser(callerId)).send({ role });

  const expectReserved = (res: request.Response) => {
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ status: 409, code: 'conflict', error: 'username is reserved' });
  };

  it('keeps the role on the admin that renames itself, and refuses its old name to everyone else in any case', async () => {
    const adminData = { ...newUserData(), username: renamedAway };
    const admin = await registerUser(h.app, adminData);
    expect((await me(admin.id)).body.role).toBe('admin');
    const away = await rename(admin.id, `moved_${run}`);
    expect(away.status).toBe(200);
    expect(away.body).toMatchObject({ username: `moved_${run}`, role: 'admin' });

    const intruderData = newUserData('intruder');
    const intruder = await registerUser(h.app, intruderData);
    expectReserved(await rename(intruder.id, renamedAway.toUpperCase()));
    expectReserved(await rename(intruder.id, `Root_${run}`));
    expectReserved(await register(renamedAway));
    const signedIn = await login(intruderData.username, intruderData.password).expect(200);
    expect(jwt.decode(signedIn.body.access_token)).toMatchObject({ role: 'user' });
    expect(signedIn.body.user.role).toBe('user');
    expect((await setRole(intruder.id, admin.id, 'user')).status).toBe(403);

    // The admin may take its own name back; it stays admin under either name.
    const back = await rename(admin.id, renamedAway.toUpperCase());
    expect(back.status).toBe(200);
    expect(back.body.role).toBe('admin');
    const adminLogin = await login(renamedAway, adminData.password).expect(200);
    expect(jwt.decode(adminLogin.body.access_token)).toMatchObject({ sub: admin.id, role: 'admin' });
  });

  it("keeps a deleted admin's name reserved: neither a registration nor a rename can take it", async () => {
    const admin = await registerUser(h.app, { ...newUserData(), username: deleted });
    expect((await me(admin.id)).body.role).toBe('admin');
    await request(h.app).delete('/api/v1/auth/me').set(asJwtUser(admin.id)).expect(200);
    expectReserved(await register(deleted));
    expectReserved(await register(deleted.toUpperCase()));
    const user = await registerUser(h.app);
    expectReserved(await rename(user.id, deleted));
    expect((await me(user.id)).body).toMatchObject({ username: user.username, role: 'user' });
  });

  it('refuses a listed name no one registered to a rename; its first registration makes the admin', async () => {
    const user = await registerUser(h.app);
    expectReserved(await rename(user.id, neverRegistered));
    expect((await me(user.id)).body).toMatchObject({ username: user.username, role: 'user' });
    const first = await register(neverRegistered.toUpperCase());
    expect(first.status).toBe(201);
    expect(first.body.role).toBe('admin');
    expectReserved(await register(neverRegistered));
  });

  it('makes exactly one admin of concurrent registrations under a listed name', async () => {
    for (const name of racedNames) {
      const variants = [name, name.toUpperCase(), `R${name.slice(1)}`];
      const answers = await Promise.all(Array.from({ length: CROWD }, (_, i) => register(variants[i % variants.length]!)));
      const created = answers.filter((res) => res.status === 201);
      expect(created).toHaveLength(1);
      expect(created[0]!.body.role).toBe('admin');
      expect(answers.filter((res) => res.status !== 201).map((res) => res.status)).toEqual(Array(CROWD - 1).fill(409));
      expect(await h.auth.repositories.users.model.countDocuments({ usernameLower: name })).toBe(1);
      expect(await h.auth.repositories.adminClaims.ownerOf(name)).toBe(created[0]!.body.id);
    }
  }, 120_000);

  it("moves the role the way an operator does: list the new admin's name, unlist the old one, restart", async () => {
    const oldAdmin = await registerUser(h.app, { ...newUserData(), username: `old_${run}` });
    const successorData = newUserData('successor');
    const successor = await registerUser(h.app, successorData);
    const restart = (names: string[]) =>
      createAuthModule({ config: { ...h.config, ADMIN_USERNAMES: names }, logger: silentLogger(), connection: h.connection, redis: h.redis, keys: h.auth.keys });

    // The old admin was named under the first list; the successor's name is listed next, the old one dropped.
    const first = restart([`old_${run}`]);
    await first.prepare();
    expect((await first.login.login(`old_${run}`, oldAdmin.password)).user.role).toBe('admin');
    const second = restart([successorData.username]);
    await second.prepare();
    expect((await me(oldAdmin.id)).body.role).toBe('user');
    const signedIn = await second.login.login(successorData.username, successorData.password);
    expect(signedIn.user).toMatchObject({ id: successor.id, role: 'admin' });
    // The old admin's name stays reserved to it.
    expectReserved(await rename(successor.id, `old_${run}`));
    await Promise.all([first.relay.stop(), second.relay.stop()]);
  });
});
