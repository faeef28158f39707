import { ApiClient } from './support/api-client';
import { startTestStack, type TestStack } from './support/test-stack';

/**
 * The journeys of a frontend (JWT) and of a script (PAT), only through the gateway, with every response
 * checked against the published OpenAPI document.
 */
const CATEGORIES = ['books', 'movies', 'tvshows'] as const;
const SAMPLE_FIELDS: Record<(typeof CATEGORIES)[number], Record<string, unknown>> = {
  movies: { runtime_minutes: 136, director: 'Lana Wachowski' },
  tvshows: { seasons: 5, episodes: 62, network: 'AMC' },
  books: { authors: ['Ursula K. Le Guin'], isbn: '978-0-441-47812-5', pages: 304 },
};

let stack: TestStack;
let api: ApiClient;

beforeAll(async () => {
  stack = await startTestStack();
  api = stack.api;
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

const unique = (label: string) => `${label}${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}`;

async function registerAndLogin(name = unique('user')) {
  const password = 'correct horse battery';
  const registered = await api.post('/api/v1/auth/register', { username: name, email: `${name}@example.com`, password });
  expect(registered.status).toBe(201);
  const login = await api.post('/api/v1/auth/login', { username: name, password });
  expect(login.status).toBe(200);
  return { user: registered.body, token: login.body.access_token as string, password, name };
}

describe('a frontend journey through the gateway', () => {
  it('registers, logs in, reads and updates the profile, and changes the password', async () => {
    const { user, token, password, name } = await registerAndLogin();
    expect(user).toEqual({
      id: expect.any(String),
      username: name,
      email: `${name}@example.com`,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });

    const me = await api.get('/api/v1/auth/me', { token });
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(user.id);

    const renamed = unique('renamed');
    const updated = await api.put('/api/v1/auth/me', { username: renamed }, { token });
    expect(updated.status).toBe(200);
    expect(updated.body.username).toBe(renamed);

    const changed = await api.put(
      '/api/v1/auth/password',
      { current_password: password, new_password: 'an even better passphrase' },
      { token },
    );
    expect(changed.status).toBe(200);
    expect(changed.body.token_type).toBe('Bearer');
    expect((await api.get('/api/v1/auth/me', { token })).status).toBe(401);
    expect((await api.get('/api/v1/auth/me', { token: changed.body.access_token })).status).toBe(200);
    const relogin = await api.post('/api/v1/auth/login', { username: renamed, password: 'an even better passphrase' });
    expect(relogin.status).toBe(200);
  });

  it('discovers the three categories', async () => {
    const categories = await api.get('/api/v1/categories');
    expect(categories.status).toBe(200);
    expect(categories.body.map((c: { id: string }) => c.id)).toEqual([...CATEGORIES]);
    for (const category of categories.body) {
      expect(category.endpoint).toBe(`/api/v1/${category.id}`);
      expect(category.name).toBe(category.id);
    }
  });

  it.each(CATEGORIES)('creates, searches and paginates the %s catalog', async (category) => {
    const { token } = await registerAndLogin();
    const word = unique('zq').toLowerCase();
    const created: string[] = [];
    for (let i = 0; i < 5; i++) {
      const entry = await api.post(
        `/api/v1/${category}`,
        { title: `Étoile ${word} ${i}`, year: 2000 + i, genres: ['Drama'], ...SAMPLE_FIELDS[category] },
        { token },
      );
      expect(entry.status).toBe(201);
      created.push(entry.body.id);
    }
    const duplicate = await api.post(`/api/v1/${category}`, { title: `ETOILE ${word} 0`, year: 2000 }, { token });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.existing_id).toBe(created[0]);

    const search = await api.get(`/api/v1/${category}?q=${encodeURIComponent(`etoi ${word.slice(0, 6)}`)}&limit=2&sort=year&order=asc`);
    expect(search.status).toBe(200);
    expect(search.body).toMatchObject({ page: 1, limit: 2, total: 5, total_pages: 3 });
    expect(search.body.data.map((e: { id: string }) => e.id)).toEqual(created.slice(0, 2));
    const lastPage = await api.get(`/api/v1/${category}?q=${word}&limit=2&page=3&sort=year&order=asc`);
    expect(lastPage.body.data.map((e: { id: string }) => e.id)).toEqual([created[4]]);
    const pastTheEnd = await api.get(`/api/v1/${category}?q=${word}&limit=2&page=4`);
    expect(pastTheEnd.body).toMatchObject({ data: [], total: 5, total_pages: 3 });

    const fetched = await api.get(`/api/v1/${category}/${created[0]}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toMatchObject(SAMPLE_FIELDS[category]);
  });

  it.each(CATEGORIES)('keeps a %s list: add, filter, update, bulk-status, bulk-delete', async (category) => {
    const { token } = await registerAndLogin();
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const entry = await api.post(`/api/v1/${category}`, { title: unique('List item '), year: 1990 + i }, { token });
      ids.push(entry.body.id);
    }
    for (const id of ids) {
      const added = await api.post(`/api/v1/${category}/list`, { item_id: id }, { token });
      expect(added.status).toBe(201);
      expect(added.body.status).toBe('plan_to_watch');
    }
    expect((await api.post(`/api/v1/${category}/list`, { item_id: ids[0] }, { token })).status).toBe(409);

    const watching = await api.patch(`/api/v1/${category}/list/${ids[0]}`, { status: 'watching', score: 8 }, { token });
    expect(watching.status).toBe(200);
    expect(watching.body.started_at).toBe(new Date().toISOString().slice(0, 10));

    const filtered = await api.get(`/api/v1/${category}/list?status=watching`, { token });
    expect(filtered.body.total).toBe(1);
    expect(filtered.body.data[0].item).toMatchObject({ id: ids[0] });

    const unknownId = 'f'.repeat(24);
    const bulk = await api.post(`/api/v1/${category}/bulk-status`, { item_ids: [ids[1], ids[2], unknownId], status: 'completed' }, { token });
    expect(bulk.status).toBe(200);
    expect(bulk.body).toEqual({ updated: 2, not_found: [unknownId] });

    const removed = await api.post(`/api/v1/${category}/bulk-delete`, { item_ids: [ids[2], ids[3]] }, { token });
    expect(removed.body).toEqual({ deleted: 2, not_found: [] });
    const remaining = await api.get(`/api/v1/${category}/list`, { token });
    expect(remaining.body.total).toBe(2);
  });

  it('deletes the account: lists go in every category, catalog entries stay with created_by null', async () => {
    const { token, user } = await registerAndLogin();
    const mine: Record<string, string> = {};
    for (const category of CATEGORIES) {
      const entry = await api.post(`/api/v1/${category}`, { title: unique('Kept '), year: 2001 }, { token });
      mine[category] = entry.body.id;
      expect((await api.post(`/api/v1/${category}/list`, { item_id: entry.body.id }, { token })).status).toBe(201);
    }
    const deleted = await api.delete('/api/v1/auth/me', { token });
    expect(deleted.status).toBe(200);
    expect((await api.get('/api/v1/auth/me', { token })).status).toBe(401);

    for (const category of CATEGORIES) {
      await stack.eventually(async () => {
        const entry = await api.get(`/api/v1/${category}/${mine[category]}`);
        expect(entry.status).toBe(200);
        expect(entry.body.created_by).toBeNull();
      });
      expect(await stack.countListEntries(category, user.id)).toBe(0);
    }
  });
});

describe('a script journey with personal access tokens', () => {
  it('creates scoped tokens, uses them, lists and revokes them', async () => {
    const { token } = await registerAndLogin();
    const readOnly = await api.post('/api/v1/auth/tokens', { name: 'reader', scopes: ['list:read'] }, { token });
    expect(readOnly.status).toBe(201);
    expect(readOnly.body.token).toMatch(/^mtp_[0-9A-Za-z]{38}$/);
    const writer = await api.post('/api/v1/auth/tokens', { name: 'writer' }, { token });
    expect(writer.body.scopes).toEqual(expect.arrayContaining(['catalog:write', 'list:read', 'list:write', 'profile:read']));

    const entry = await api.post('/api/v1/movies', { title: unique('Scripted '), year: 2010 }, { token: writer.body.token });
    expect(entry.status).toBe(201);
    expect((await api.post('/api/v1/movies/list', { item_id: entry.body.id }, { token: writer.body.token })).status).toBe(201);
    expect((await api.get('/api/v1/movies/list', { token: readOnly.body.token })).body.total).toBe(1);
    const forbidden = await api.post('/api/v1/movies/list', { item_id: entry.body.id }, { token: readOnly.body.token });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error).toContain('list:write');

    const listed = await api.get('/api/v1/auth/tokens', { token });
    expect(listed.body.map((t: { name: string }) => t.name)).toEqual(['writer', 'reader']);
    expect(JSON.stringify(listed.body)).not.toContain(readOnly.body.token);

    expect((await api.delete(`/api/v1/auth/tokens/${readOnly.body.id}`, { token })).status).toBe(200);
    expect((await api.get('/api/v1/movies/list', { token: readOnly.body.token })).status).toBe(401);
    expect((await api.get('/api/v1/movies/list', { token: writer.body.token })).status).toBe(200);
  });
});
