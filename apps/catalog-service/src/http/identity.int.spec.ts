import { signIdentity } from '@mt/identity';
import { SCOPES } from '@mt/tokens';
import request from 'supertest';
import { startCatalogHarness, type CatalogHarness } from '../../test/catalog-harness';
import { asUser, identityHeaders, newUserId, TEST_SECRET } from '../../test/identity-headers';

describe('identity from the gateway only', () => {
  let h: CatalogHarness;
  let entryId: string;
  const owner = newUserId();
  beforeAll(async () => {
    h = await startCatalogHarness({ category: 'tvshows' });
    const created = await request(h.app).post('/api/v1/tvshows').set(asUser(owner)).send({ title: 'The Wire', year: 2002 });
    entryId = created.body.id;
  });
  afterAll(() => h.close());

  const protectedRoutes = (): Array<[string, string, object?]> => [
    ['post', '/api/v1/tvshows', { title: 'Forged' }],
    ['patch', `/api/v1/tvshows/${entryId}`, { title: 'Forged' }],
    ['get', '/api/v1/tvshows/list'],
    ['post', '/api/v1/tvshows/list', { item_id: entryId }],
    ['get', `/api/v1/tvshows/list/${entryId}`],
    ['patch', `/api/v1/tvshows/list/${entryId}`, { score: 1 }],
    ['delete', `/api/v1/tvshows/list/${entryId}`],
    ['post', '/api/v1/tvshows/bulk-status', { item_ids: [entryId], status: 'dropped' }],
    ['post', '/api/v1/tvshows/bulk-delete', { item_ids: [entryId] }],
  ];

  const call = (method: string, path: string, headers: Record<string, string>, body?: object) => {
    const req = request(h.app)[method as 'get'](path).set(headers);
    return body ? req.send(body) : req;
  };

  const forgeries: Array<[string, () => Record<string, string>]> = [
    ['no identity at all', () => ({})],
    ['headers signed with another secret', () => identityHeaders({ userId: owner, authType: 'jwt', scopes: [...SCOPES], tokenId: 't' }, 'some-other-secret-that-is-long-enough')],
    [
      'unsigned identity headers',
      () => ({ 'x-mt-user-id': owner, 'x-mt-auth-type': 'jwt', 'x-mt-scopes': SCOPES.join(' '), 'x-mt-token-id': 't', 'x-mt-identity-ts': String(Date.now()) }),
    ],
    [
      'a signature replayed with another user id',
      () => ({ ...identityHeaders({ userId: newUserId(), authType: 'jwt', scopes: [...SCOPES], tokenId: 't' }), 'x-mt-user-id': owner }),
    ],
    [
      'a signature replayed with more scopes',
      () => ({ ...identityHeaders({ userId: owner, authType: 'pat', scopes: ['profile:read'], tokenId: 't' }), 'x-mt-scopes': SCOPES.join(' ') }),
    ],
    ['a signature for another request id', () => ({ ...identityHeaders({ userId: owner, authType: 'jwt', scopes: [...SCOPES], tokenId: 't' }), 'x-request-id': 'another-request' })],
    [
      'a stale signature',
      () => {
        const requestId = 'stale-request';
        return { 'x-request-id': requestId, ...signIdentity({ userId: owner, authType: 'jwt', scopes: [...SCOPES], tokenId: 't' }, requestId, TEST_SECRET, Date.now() - 120_000) };
      },
    ],
  ];

  it.each(forgeries)('answers 401 to every protected route for %s, and changes nothing', async (_name, headers) => {
    for (const [method, path, body] of protectedRoutes()) {
      const res = await call(method, path, headers(), body);
      expect({ method, path, status: res.status, code: res.body.code }).toEqual({ method, path, status: 401, code: 'unauthorized' });
    }
    expect((await request(h.app).get(`/api/v1/tvshows/${entryId}`)).body.title).toBe('The Wire');
  });

  it('serves the public reads without any identity', async () => {
    expect((await request(h.app).get('/api/v1/tvshows')).status).toBe(200);
    expect((await request(h.app).get(`/api/v1/tvshows/${entryId}`)).status).toBe(200);
  });

  it('refuses a forged identity on a public read too (401), never ignoring it', async () => {
    const res = await request(h.app).get('/api/v1/tvshows').set(forgeries[1]![1]());
    expect(res.status).toBe(401);
  });

  it('answers 403 naming the scope a personal access token lacks', async () => {
    const reader = newUserId();
    const readOnly = asUser(reader, ['list:read']);
    const write = await request(h.app).post('/api/v1/tvshows/list').set(readOnly).send({ item_id: entryId });
    expect(write.status).toBe(403);
    expect(write.body).toMatchObject({ code: 'forbidden', error: expect.stringContaining('list:write') });
    expect((await request(h.app).get('/api/v1/tvshows/list').set(readOnly)).status).toBe(200);
    const create = await request(h.app).post('/api/v1/tvshows').set(asUser(reader, ['list:read', 'list:write'])).send({ title: 'Nope' });
    expect(create.status).toBe(403);
    expect(create.body.error).toContain('catalog:write');
    const bulk = await request(h.app).post('/api/v1/tvshows/bulk-delete').set(asUser(reader, ['list:read'])).send({ item_ids: [entryId] });
    expect(bulk.status).toBe(403);
  });
});
