import { PAT_CACHE_TTL_SECONDS, isPatReintrospectMarker, redisKeys } from '@mt/contracts';
import { hashPat } from '@mt/tokens';
import jwt from 'jsonwebtoken';
import request from 'supertest';
import { createPat, newUserData, registerUser, startAuthHarness, type AuthHarness } from '../../test/auth-harness';
import { asJwtUser, internalHeaders } from '../../test/identity-headers';

describe('roles and catalog:moderate (docs/api.md "Authentication")', () => {
  let h: AuthHarness;
  const adminData = newUserData('admin');
  let admin: { id: string };
  beforeAll(async () => {
    h = await startAuthHarness({ env: { ADMIN_USERNAMES: ` someone-else , ${adminData.username.toUpperCase()} ` } });
    admin = await registerUser(h.app, adminData);
  });
  afterAll(() => h.close());

  const setRole = (callerId: string, targetId: string, role: string) =>
    request(h.app).put(`/api/v1/auth/users/${targetId}/role`).set(asJwtUser(callerId)).send({ role });
  const login = (username: string, password: string) => request(h.app).post('/api/v1/auth/login').send({ username, password });
  const introspect = (token: string) => request(h.app).post('/internal/introspect').set(internalHeaders()).send({ token });

  it('shows the role in the user object: user by default, admin for ADMIN_USERNAMES (any case) at registration', async () => {
    const user = await registerUser(h.app);
    expect((await request(h.app).get('/api/v1/auth/me').set(asJwtUser(user.id))).body.role).toBe('user');
    expect((await request(h.app).get('/api/v1/auth/me').set(asJwtUser(admin.id))).body.role).toBe('admin');
  });

  it('makes a configured user admin at login, and signs the role into the JWT', async () => {
    const data = newUserData('late');
    const other = await startAuthHarness({ env: { ADMIN_USERNAMES: data.username } });
    try {
      // Registered as a plain user (as before the name was configured), then logged in.
      const there = await registerUser(other.app, data);
      await other.auth.repositories.users.model.updateOne({ _id: there.id }, { $unset: { role: '' } });
      const res = await request(other.app).post('/api/v1/auth/login').send({ username: data.username, password: data.password });
      expect(res.status).toBe(200);
      expect(jwt.decode(res.body.access_token)).toMatchObject({ role: 'admin' });
      expect((await request(other.app).get('/api/v1/auth/me').set(asJwtUser(there.id))).body.role).toBe('admin');
    } finally {
      await other.close();
    }
  });

  it('lets only an admin change roles (403), never its own or another admin\'s, 404 for an unknown user, 400 for admin or junk', async () => {
    const user = await registerUser(h.app);
    const other = await registerUser(h.app);
    expect((await setRole(user.id, other.id, 'moderator')).status).toBe(403);
    expect((await setRole(admin.id, admin.id, 'user')).status).toBe(403);
    expect((await setRole(admin.id, 'f'.repeat(24), 'moderator')).status).toBe(404);
    expect((await setRole(admin.id, 'nope', 'moderator')).status).toBe(400);
    expect((await setRole(admin.id, other.id, 'admin')).status).toBe(400);
    expect((await setRole(admin.id, other.id, 'superuser')).status).toBe(400);
    const granted = await setRole(admin.id, other.id, 'moderator');
    expect(granted.status).toBe(200);
    expect(granted.body).toMatchObject({ id: other.id, role: 'moderator' });
    // A moderator cannot hand out roles either.
    expect((await setRole(other.id, user.id, 'moderator')).status).toBe(403);
  });

  it('grants catalog:moderate to PATs of moderators and admins only, and never by default', async () => {
    const user = await registerUser(h.app);
    const refused = await request(h.app).post('/api/v1/auth/tokens').set(asJwtUser(user.id)).send({ name: 'mod', scopes: ['catalog:moderate'] });
    expect(refused.status).toBe(403);
    const byDefault = await createPat(h.app, admin.id, { name: `default-${Date.now()}` });
    expect(byDefault.scopes).not.toContain('catalog:moderate');
    const moderate = await createPat(h.app, admin.id, { name: `mod-${Date.now()}`, scopes: ['catalog:moderate', 'catalog:write'] });
    expect(moderate.scopes).toEqual(['catalog:moderate', 'catalog:write']);
    expect((await introspect(moderate.token)).body.scopes).toEqual(['catalog:moderate', 'catalog:write']);
  });

  it('removing a role takes effect at once: JWT cut-off moved, PAT caches marked for re-introspection (not revoked), introspection drops catalog:moderate', async () => {
    const data = newUserData('mod');
    const mod = await registerUser(h.app, data);
    expect((await setRole(admin.id, mod.id, 'moderator')).status).toBe(200);
    const before = await login(data.username, data.password);
    const token = before.body.access_token as string;
    const claims = jwt.decode(token) as { role: string; cutoff_ms: number };
    expect(claims.role).toBe('moderator');
    const pat = await createPat(h.app, mod.id, { name: 'moderation', scopes: ['catalog:moderate', 'catalog:write'] });
    expect((await introspect(pat.token)).body.scopes).toContain('catalog:moderate');

    const removed = await setRole(admin.id, mod.id, 'user');
    expect(removed.status).toBe(200);
    expect(removed.body.role).toBe('user');

    const keys = redisKeys(h.prefix);
    const mirrored = Number(await h.inspect.get(keys.jwtCutoff(mod.id)));
    expect(mirrored).toBeGreaterThan(claims.cutoff_ms);
    // Not a revocation tombstone: a re-introspect marker, over the cache entry and living as long as a tombstone.
    const cached = (await h.inspect.get(keys.patCache(hashPat(pat.token)))) ?? '';
    expect(isPatReintrospectMarker(cached)).toBe(true);
    expect(JSON.parse(cached)).not.toHaveProperty('active');
    expect(await h.inspect.ttl(keys.patCache(hashPat(pat.token)))).toBeGreaterThan(PAT_CACHE_TTL_SECONDS);
    const after = await introspect(pat.token);
    expect(after.body).toMatchObject({ active: true });
    expect(after.body.scopes).toEqual(['catalog:write']);
    const again = await login(data.username, data.password);
    expect(jwt.decode(again.body.access_token)).toMatchObject({ role: 'user', cutoff_ms: mirrored });
    // Setting the same role again changes nothing.
    expect((await setRole(admin.id, mod.id, 'user')).body.role).toBe('user');
  });
});
