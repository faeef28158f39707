import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPI } from 'openapi-types';
import type { ApiClient } from './support/api-client';
import type {
  BulkDeleteResult,
  BulkStatusResult,
  CatalogEntry,
  Category,
  CreatedToken,
  ErrorPayload,
  ListEntry,
  LoginResponse,
  Message,
  Page,
  PasswordChanged,
  TokenMetadata,
  User,
} from './support/api-types';
import {
  CATEGORIES,
  startTestStack,
  type Category as CategoryId,
  type TestStack,
} from './support/test-stack';

/**
 * The journeys of a frontend (JWT) and of a script (PAT), only through the gateway of a whole stack of
 * processes, with every response checked against the published OpenAPI document (support/api-client.ts).
 */

/** Fields of each category as sent, and as the API gives them back (ISBNs are stored as digits). */
const OWN_FIELDS: Record<CategoryId, { sent: Record<string, unknown>; stored: Record<string, unknown> }> = {
  movies: {
    sent: { runtime_minutes: 136, director: 'Lana Wachowski' },
    stored: { runtime_minutes: 136, director: 'Lana Wachowski' },
  },
  tvshows: {
    sent: { seasons: 5, episodes: 62, network: 'AMC' },
    stored: { seasons: 5, episodes: 62, network: 'AMC' },
  },
  books: {
    sent: { authors: ['Ursula K. Le Guin'], isbn: '978-0-441-47812-5', pages: 304 },
    stored: { authors: ['Ursula K. Le Guin'], isbn: '9780441478125', pages: 304 },
  },
};
const NO_OWN_FIELDS: Record<CategoryId, Record<string, unknown>> = {
  movies: { runtime_minutes: null, director: null },
  tvshows: { seasons: null, episodes: null, network: null },
  books: { authors: [], isbn: null, pages: null },
};
const PASSWORD = 'correct horse battery';

/** A valid ISBN-13 (check digit computed) that no other run uses. */
function uniqueIsbn13(): string {
  const body = `978${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;
  const sum = [...body].reduce((total, digit, index) => total + Number(digit) * (index % 2 ? 3 : 1), 0);
  return `${body}${(10 - (sum % 10)) % 10}`;
}
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UNKNOWN_ID = 'f'.repeat(24);

let stack: TestStack;
let api: ApiClient;

beforeAll(async () => {
  stack = await startTestStack({ name: 'journeys' });
  api = stack.api;
}, 120_000);

afterAll(async () => {
  await stack?.stop();
}, 60_000);

let counter = 0;
/** Unique per run and per call: every test works with its own users and titles in the shared stack. */
const unique = (label: string) => `${label}${Date.now().toString(36)}${(counter++).toString(36)}`;
const today = () => new Date().toISOString().slice(0, 10);

interface Account {
  user: User;
  token: string;
  name: string;
}

async function registerAndLogin(name = unique('user')): Promise<Account> {
  const registered = await api.post<User>('/api/v1/auth/register', {
    username: name,
    email: `${name}@Example.com`,
    password: PASSWORD,
  });
  expect(registered.status).toBe(201);
  const login = await api.post<LoginResponse>('/api/v1/auth/login', { username: name, password: PASSWORD });
  expect(login.status).toBe(200);
  return { user: registered.body, token: login.body.access_token, name };
}

async function createEntry(
  category: CategoryId,
  token: string,
  fields: Record<string, unknown> = {},
): Promise<CatalogEntry> {
  const created = await api.post<CatalogEntry>(
    `/api/v1/${category}`,
    { title: unique('Entry '), year: 2001, ...fields },
    { token },
  );
  expect(created.status).toBe(201);
  return created.body;
}

const idsOf = (entries: Array<{ id: string }>) => entries.map((entry) => entry.id);

describe('a frontend journey (JWT) through the gateway', () => {
  it('registers, logs in by username or email, reads and updates the profile', async () => {
    const name = unique('Fe_user');
    const registered = await api.post<User>('/api/v1/auth/register', {
      username: name,
      email: `${name}@Example.COM`,
      password: PASSWORD,
    });
    expect(registered.status).toBe(201);
    expect(registered.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      username: name,
      email: `${name.toLowerCase()}@example.com`,
      role: 'user',
      created_at: expect.stringMatching(ISO_TIMESTAMP),
      updated_at: expect.stringMatching(ISO_TIMESTAMP),
    });
    const taken = await api.post<ErrorPayload>('/api/v1/auth/register', {
      username: name.toUpperCase(),
      email: 'other@example.com',
      password: PASSWORD,
    });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('conflict');

    const login = await api.post<LoginResponse>('/api/v1/auth/login', {
      username: `${name}@example.com`,
      password: PASSWORD,
    });
    expect(login.status).toBe(200);
    expect(login.body).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 3600,
      user: registered.body,
    });
    const wrong = await api.post<ErrorPayload>('/api/v1/auth/login', {
      username: name,
      password: 'not the password',
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe('unauthorized');

    const token = login.body.access_token;
    const me = await api.get<User>('/api/v1/auth/me', { token });
    expect(me.status).toBe(200);
    expect(me.body).toEqual(registered.body);

    const renamed = unique('renamed');
    const updated = await api.put<User>(
      '/api/v1/auth/me',
      { username: renamed, email: `${renamed}@example.org` },
      { token },
    );
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      id: registered.body.id,
      username: renamed,
      email: `${renamed}@example.org`,
    });
    expect((await api.get<User>('/api/v1/auth/me', { token })).body.username).toBe(renamed);
    const empty = await api.put<ErrorPayload>('/api/v1/auth/me', {}, { token });
    expect(empty.status).toBe(400);
    expect(empty.body.code).toBe('validation_failed');
  });

  it('changes the password: older JWTs stop working, the returned one works, the new password logs in', async () => {
    const { token, name } = await registerAndLogin();
    const wrongCurrent = await api.put<ErrorPayload>(
      '/api/v1/auth/password',
      { current_password: 'not the password', new_password: 'an even better passphrase' },
      { token },
    );
    expect(wrongCurrent.status).toBe(403);

    const changed = await api.put<PasswordChanged>(
      '/api/v1/auth/password',
      { current_password: PASSWORD, new_password: 'an even better passphrase' },
      { token },
    );
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({
      message: expect.any(String),
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 3600,
    });
    const old = await api.get<ErrorPayload>('/api/v1/auth/me', { token });
    expect(old.status).toBe(401);
    expect(old.body.code).toBe('unauthorized');
    expect((await api.get<User>('/api/v1/auth/me', { token: changed.body.access_token })).status).toBe(200);
    expect((await api.post('/api/v1/auth/login', { username: name, password: PASSWORD })).status).toBe(401);
    expect(
      (await api.post('/api/v1/auth/login', { username: name, password: 'an even better passphrase' }))
        .status,
    ).toBe(200);
  });

  it('discovers the three categories, sorted by id', async () => {
    const categories = await api.get<Category[]>('/api/v1/categories');
    expect(categories.status).toBe(200);
    expect(categories.body).toEqual([
      {
        id: 'books',
        name: 'books',
        display_name: 'Books',
        description: expect.any(String),
        endpoint: '/api/v1/books',
        icon: 'book',
        progress_unit: 'pages',
        providers: [],
        status_labels: { watching: 'Reading', completed: 'Read', on_hold: 'On hold', dropped: 'Abandoned', plan_to_watch: 'Want to read' },
      },
      {
        id: 'movies',
        name: 'movies',
        display_name: 'Movies',
        description: expect.any(String),
        endpoint: '/api/v1/movies',
        icon: 'film',
        progress_unit: 'minutes',
        providers: [],
        status_labels: { watching: 'Watching', completed: 'Watched', on_hold: 'On hold', dropped: 'Dropped', plan_to_watch: 'Want to watch' },
      },
      {
        id: 'tvshows',
        name: 'tvshows',
        display_name: 'TV Shows',
        description: expect.any(String),
        endpoint: '/api/v1/tvshows',
        icon: 'tv',
        progress_unit: 'episodes',
        providers: [],
        status_labels: { watching: 'Watching', completed: 'Completed', on_hold: 'On hold', dropped: 'Dropped', plan_to_watch: 'Plan to watch' },
      },
    ]);
  });

  it('serves the OpenAPI document and the documentation page', async () => {
    const document = await api.get<{ openapi: string; paths: Record<string, unknown> }>(
      '/api/v1/openapi.json',
    );
    expect(document.status).toBe(200);
    expect(document.body.openapi).toMatch(/^3\.0\.\d+$/);
    // The merged document of the real stack passes a standard validator (which works on a copy).
    await expect(
      SwaggerParser.validate(structuredClone(document.body) as OpenAPI.Document),
    ).resolves.toBeDefined();
    for (const category of CATEGORIES)
      expect(Object.keys(document.body.paths)).toContain(`/api/v1/${category}/{id}`);
    const docs = await api.get<string>('/api/v1/docs');
    expect(docs.status).toBe(200);
    expect(docs.headers.get('content-type')).toMatch(/^text\/html/);
    expect(docs.body).toContain('swagger-ui');
  });

  it('checks responses for real: the published document rejects a user object with an extra field', () => {
    const user = {
      id: 'a'.repeat(24),
      username: 'x',
      email: 'x@example.com',
      role: 'user',
      created_at: '2026-11-21T16:11:00.000Z',
      updated_at: '2026-11-21T16:11:00.000Z',
    };
    expect(
      stack.conformance.explain('GET', '/api/v1/auth/me', 200, user, 'application/json'),
    ).toBeUndefined();
    expect(
      stack.conformance.explain(
        'GET',
        '/api/v1/auth/me',
        200,
        { ...user, password_hash: 'x' },
        'application/json',
      ),
    ).toMatch(/must NOT have additional properties/);
    expect(stack.conformance.explain('GET', '/api/v1/auth/me', 418, user, 'application/json')).toMatch(
      /not documented/,
    );
  });

  it.each(CATEGORIES)('creates, searches, paginates and edits the %s catalog', async (category) => {
    const { token, user } = await registerAndLogin();
    const word = unique('zq').toLowerCase();
    const created: CatalogEntry[] = [];
    // A book's ISBN is an external id, unique in the category: every book of the run has its own.
    const ownIds = Array.from({ length: 5 }, () => {
      if (category !== 'books') return { sent: {}, stored: { external_ids: {} } };
      const isbn = uniqueIsbn13();
      return { sent: { isbn }, stored: { isbn, external_ids: { isbn13: isbn } } };
    });
    for (let i = 0; i < 5; i++) {
      const entry = await api.post<CatalogEntry>(
        `/api/v1/${category}`,
        { title: `Étoile ${word} ${i}`, year: 2000 + i, genres: ['Drama'], ...OWN_FIELDS[category].sent, ...ownIds[i]!.sent },
        { token },
      );
      expect(entry.status).toBe(201);
      expect(entry.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f]{24}$/),
        title: `Étoile ${word} ${i}`,
        year: 2000 + i,
        description: null,
        genres: ['Drama'],
        poster_url: null,
        poster: null,
        created_by: user.id,
        created_at: expect.stringMatching(ISO_TIMESTAMP),
        updated_at: expect.stringMatching(ISO_TIMESTAMP),
        ...OWN_FIELDS[category].stored,
        ...ownIds[i]!.stored,
      });
      created.push(entry.body);
    }
    const bare = await api.post<CatalogEntry>(`/api/v1/${category}`, { title: `Bare ${word}` }, { token });
    expect(bare.status).toBe(201);
    expect(bare.body).toMatchObject({
      year: null,
      description: null,
      genres: [],
      ...NO_OWN_FIELDS[category],
    });

    // Same title ignoring case and accents, same year: a duplicate, naming the existing entry.
    const duplicate = await api.post<ErrorPayload>(
      `/api/v1/${category}`,
      { title: `ETOILE ${word.toUpperCase()} 0`, year: 2000 },
      { token },
    );
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toMatchObject({ code: 'conflict', status: 409, existing_id: created[0]!.id });

    // Every word must match, as a whole word or a word prefix, ignoring case and accents.
    const query = encodeURIComponent(`etoi ${word.slice(0, -1)}`);
    const firstPage = await api.get<Page<CatalogEntry>>(
      `/api/v1/${category}?q=${query}&limit=2&sort=year&order=asc`,
    );
    expect(firstPage.status).toBe(200);
    expect(firstPage.body).toMatchObject({ page: 1, limit: 2, total: 5, total_pages: 3 });
    expect(idsOf(firstPage.body.data)).toEqual(idsOf(created.slice(0, 2)));
    const lastPage = await api.get<Page<CatalogEntry>>(
      `/api/v1/${category}?q=${query}&limit=2&page=3&sort=year&order=asc`,
    );
    expect(idsOf(lastPage.body.data)).toEqual([created[4]!.id]);
    const pastTheEnd = await api.get<Page<CatalogEntry>>(`/api/v1/${category}?q=${query}&limit=2&page=4`);
    expect(pastTheEnd.status).toBe(200);
    expect(pastTheEnd.body).toEqual({ data: [], page: 4, limit: 2, total: 5, total_pages: 3, next_cursor: null });
    const byGenre = await api.get<Page<CatalogEntry>>(`/api/v1/${category}?q=${word}&genre=drama&year=2003`);
    expect(idsOf(byGenre.body.data)).toEqual([created[3]!.id]);
    const nothing = await api.get<Page<CatalogEntry>>(`/api/v1/${category}?q=${word}xyz`);
    expect(nothing.body).toEqual({ data: [], page: 1, limit: 20, total: 0, total_pages: 0, next_cursor: null });

    const tooMany = await api.get<ErrorPayload>(`/api/v1/${category}?limit=101`);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toMatchObject({
      code: 'validation_failed',
      details: [expect.objectContaining({ path: 'limit' })],
    });
    const typo = await api.get<ErrorPayload>(`/api/v1/${category}?qq=${word}`);
    expect(typo.status).toBe(400);

    const fetched = await api.get<CatalogEntry>(`/api/v1/${category}/${created[0]!.id}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(created[0]);
    expect((await api.get<ErrorPayload>(`/api/v1/${category}/${UNKNOWN_ID}`)).status).toBe(404);
    expect((await api.get<ErrorPayload>(`/api/v1/${category}/not-an-id`)).status).toBe(400);

    const edited = await api.patch<CatalogEntry>(
      `/api/v1/${category}/${created[0]!.id}`,
      { description: 'Edited' },
      { token },
    );
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({
      id: created[0]!.id,
      description: 'Edited',
      title: created[0]!.title,
    });
    const stranger = await registerAndLogin();
    const notTheirs = await api.patch<ErrorPayload>(
      `/api/v1/${category}/${created[0]!.id}`,
      { description: 'Vandalised' },
      { token: stranger.token },
    );
    expect(notTheirs.status).toBe(403);
    expect(notTheirs.body.code).toBe('forbidden');
    const unknownField = await api.post<ErrorPayload>(
      `/api/v1/${category}`,
      { title: 'x', rating: 5 },
      { token },
    );
    expect(unknownField.status).toBe(400);
    expect(unknownField.body.details).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: 'rating' })]),
    );
    expect((await api.post<ErrorPayload>(`/api/v1/${category}`, { title: 'Anonymous' })).status).toBe(401);
  });

  it.each(CATEGORIES)('keeps a %s list: add, filter, update, bulk-status, bulk-delete', async (category) => {
    const { token } = await registerAndLogin();
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await createEntry(category, token, { year: 1990 + i })).id);

    for (const id of ids) {
      const added = await api.post<ListEntry>(`/api/v1/${category}/list`, { item_id: id }, { token });
      expect(added.status).toBe(201);
      expect(added.body).toMatchObject({
        item_id: id,
        item: { id },
        status: 'plan_to_watch',
        score: null,
        started_at: null,
        finished_at: null,
      });
    }
    const again = await api.post<ErrorPayload>(`/api/v1/${category}/list`, { item_id: ids[0] }, { token });
    expect(again.status).toBe(409);
    expect(
      (await api.post<ErrorPayload>(`/api/v1/${category}/list`, { item_id: UNKNOWN_ID }, { token })).status,
    ).toBe(404);

    const watching = await api.patch<ListEntry>(
      `/api/v1/${category}/list/${ids[0]}`,
      { status: 'watching', score: 8, progress: 3 },
      { token },
    );
    expect(watching.status).toBe(200);
    expect(watching.body).toMatchObject({
      status: 'watching',
      score: 8,
      progress: 3,
      started_at: today(),
      finished_at: null,
    });
    const badDates = await api.patch<ErrorPayload>(
      `/api/v1/${category}/list/${ids[0]}`,
      { started_at: '2024-05-02', finished_at: '2024-05-01' },
      { token },
    );
    expect(badDates.status).toBe(400);

    const filtered = await api.get<Page<ListEntry>>(`/api/v1/${category}/list?status=watching`, { token });
    expect(filtered.status).toBe(200);
    expect(filtered.body).toMatchObject({ total: 1, page: 1 });
    expect(filtered.body.data.map((entry) => entry.item_id)).toEqual([ids[0]]);
    const one = await api.get<ListEntry>(`/api/v1/${category}/list/${ids[0]}`, { token });
    expect(one.body).toEqual(watching.body);

    const bulk = await api.post<BulkStatusResult>(
      `/api/v1/${category}/bulk-status`,
      { item_ids: [ids[1], ids[2], UNKNOWN_ID], status: 'completed' },
      { token },
    );
    expect(bulk.status).toBe(200);
    expect(bulk.body).toEqual({ updated: 2, not_found: [UNKNOWN_ID] });
    const completed = await api.get<Page<ListEntry>>(
      `/api/v1/${category}/list?status=completed&sort=title&order=asc`,
      { token },
    );
    // Compared in id order on both sides: ids made by two catalog instances (test:two-of-everything) are not
    // in the order of their titles.
    expect(completed.body.data.map((entry) => [entry.item_id, entry.finished_at]).sort()).toEqual(
      [ids[1], ids[2]].map((id) => [id, today()]).sort(),
    );
    const invalidBulk = await api.post<ErrorPayload>(
      `/api/v1/${category}/bulk-status`,
      { item_ids: [ids[3], ids[3]], status: 'dropped' },
      { token },
    );
    expect(invalidBulk.status).toBe(400);
    expect((await api.get<ListEntry>(`/api/v1/${category}/list/${ids[3]}`, { token })).body.status).toBe(
      'plan_to_watch',
    );

    const removed = await api.post<BulkDeleteResult>(
      `/api/v1/${category}/bulk-delete`,
      { item_ids: [ids[2], ids[3]] },
      { token },
    );
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ deleted: 2, not_found: [] });
    const deleted = await api.delete<Message>(`/api/v1/${category}/list/${ids[1]}`, { token });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ message: expect.any(String) });
    const remaining = await api.get<Page<ListEntry>>(`/api/v1/${category}/list`, { token });
    expect(remaining.body.total).toBe(1);
    expect(remaining.body.data.map((entry) => entry.item_id)).toEqual([ids[0]]);

    // Another user sees none of it.
    const other = await registerAndLogin();
    expect(
      (await api.get<ErrorPayload>(`/api/v1/${category}/list/${ids[0]}`, { token: other.token })).status,
    ).toBe(404);
    expect(
      (await api.get<Page<ListEntry>>(`/api/v1/${category}/list`, { token: other.token })).body.total,
    ).toBe(0);
    expect((await api.get<ErrorPayload>(`/api/v1/${category}/list`)).status).toBe(401);
  });

  it('deletes the account: the lists go in every category, catalog entries stay with created_by null', async () => {
    const { token, user } = await registerAndLogin();
    const pat = await api.post<CreatedToken>('/api/v1/auth/tokens', { name: 'before deletion' }, { token });
    expect(pat.status).toBe(201);
    const mine: Partial<Record<CategoryId, string>> = {};
    for (const category of CATEGORIES) {
      const entry = await createEntry(category, token);
      mine[category] = entry.id;
      expect((await api.post(`/api/v1/${category}/list`, { item_id: entry.id }, { token })).status).toBe(201);
      expect(await stack.countListEntries(category, user.id)).toBe(1);
    }

    const deleted = await api.delete<Message>('/api/v1/auth/me', { token });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ message: expect.any(String) });
    expect((await api.get<ErrorPayload>('/api/v1/auth/me', { token })).status).toBe(401);
    expect((await api.get<ErrorPayload>('/api/v1/movies/list', { token: pat.body.token })).status).toBe(401);
    expect(
      (await api.post<ErrorPayload>('/api/v1/auth/login', { username: user.username, password: PASSWORD }))
        .status,
    ).toBe(401);

    for (const category of CATEGORIES) {
      await stack.eventually(async () => {
        const entry = await api.get<CatalogEntry>(`/api/v1/${category}/${mine[category]}`);
        expect(entry.status).toBe(200);
        expect(entry.body.created_by).toBeNull();
        expect(await stack.countListEntries(category, user.id)).toBe(0);
      });
    }
  });

  it('carries one request id through the gateway and the service, and into the error payload', async () => {
    const requestId = unique('e2e-trace-');
    const answer = await api.get<ErrorPayload>(`/api/v1/movies/${UNKNOWN_ID}`, {
      headers: { 'x-request-id': requestId },
    });
    expect(answer.status).toBe(404);
    expect(answer.headers.get('x-request-id')).toBe(requestId);
    expect(answer.body).toMatchObject({
      code: 'not_found',
      status: 404,
      request_id: requestId,
      timestamp: expect.stringMatching(ISO_TIMESTAMP),
    });
    await stack.eventually(async () => {
      const loggedBy = stack.logs
        .filter((line) => line.json?.['request_id'] === requestId)
        .map((line) => line.process);
      expect(new Set(loggedBy)).toEqual(new Set(['gateway', 'catalog-movies']));
    });
  });

  it('answers bad input with the error payload: malformed JSON 400, wrong content type 415, body over 1 MiB 413', async () => {
    const malformed = await api.request<ErrorPayload>('POST', '/api/v1/auth/register', {
      rawBody: '{"username": ',
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('validation_failed');
    const wrongType = await api.request<ErrorPayload>('POST', '/api/v1/auth/login', {
      rawBody: 'username=a',
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(wrongType.status).toBe(415);
    expect(wrongType.body.code).toBe('unsupported_media_type');
    const huge = await api.request<ErrorPayload>('POST', '/api/v1/auth/register', {
      rawBody: JSON.stringify({
        username: 'big',
        email: 'big@example.com',
        password: 'x'.repeat(1024 * 1024),
      }),
    });
    expect(huge.status).toBe(413);
    expect(huge.body.code).toBe('payload_too_large');
    const missing = await api.request<ErrorPayload>('POST', '/api/v1/auth/register', {});
    expect(missing.status).toBe(400);
    expect(missing.body.details?.map((detail) => detail.path).sort()).toEqual([
      'email',
      'password',
      'username',
    ]);
  });
});

describe('the edges a client meets', () => {
  it('answers an unknown route with 404 and a wrong method with 405 and Allow, in the error payload', async () => {
    const unknown = await api.request<ErrorPayload>('GET', '/api/v1/anime', { undocumented: true });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('not_found');
    const wrongMethod = await api.request<ErrorPayload>('DELETE', '/api/v1/movies', { undocumented: true });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.body.code).toBe('method_not_allowed');
    expect(wrongMethod.headers.get('allow')).toMatch(/GET/);
  });

  it('locks a username out after 10 failed logins with 429 and Retry-After, even with the right password', async () => {
    const { name } = await registerAndLogin();
    for (let i = 0; i < 10; i++) {
      expect(
        (
          await api.post<ErrorPayload>('/api/v1/auth/login', {
            username: name,
            password: `wrong password ${i}`,
          })
        ).status,
      ).toBe(401);
    }
    const locked = await api.post<ErrorPayload>('/api/v1/auth/login', { username: name, password: PASSWORD });
    expect(locked.status).toBe(429);
    expect(locked.body.code).toBe('rate_limited');
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('validates ids and limits: malformed ids 400, unknown ids 404, over-long bulk requests 400', async () => {
    const { token } = await registerAndLogin();
    expect((await api.delete<ErrorPayload>('/api/v1/auth/tokens/not-an-id', { token })).status).toBe(400);
    expect((await api.delete<ErrorPayload>(`/api/v1/auth/tokens/${UNKNOWN_ID}`, { token })).status).toBe(404);
    expect((await api.get<ErrorPayload>('/api/v1/books/list/not-an-id', { token })).status).toBe(400);
    expect(
      (await api.patch<ErrorPayload>(`/api/v1/books/list/${UNKNOWN_ID}`, { score: 5 }, { token })).status,
    ).toBe(404);
    const tooMany = Array.from({ length: 501 }, (_, i) => i.toString(16).padStart(24, '0'));
    const bulk = await api.post<ErrorPayload>('/api/v1/books/bulk-delete', { item_ids: tooMany }, { token });
    expect(bulk.status).toBe(400);
    expect(bulk.body.code).toBe('validation_failed');
    const badScore = await api.post<ErrorPayload>(
      '/api/v1/books/list',
      { item_id: UNKNOWN_ID, score: 11 },
      { token },
    );
    expect(badScore.status).toBe(400);
    expect(badScore.body.details).toEqual([expect.objectContaining({ path: 'score' })]);
  });

  it('honours an Idempotency-Key: the same POST twice creates one entry and answers the same, replayed', async () => {
    const { token } = await registerAndLogin();
    const title = unique('Idempotent ');
    const headers = { 'idempotency-key': unique('key-') };
    const first = await api.post<CatalogEntry>('/api/v1/movies', { title, year: 1999 }, { token, headers });
    const second = await api.post<CatalogEntry>('/api/v1/movies', { title, year: 1999 }, { token, headers });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('location')).toBe(first.headers.get('location'));
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    const found = await api.get<Page<CatalogEntry>>(`/api/v1/movies?q=${encodeURIComponent(title)}`);
    expect(idsOf(found.body.data)).toEqual([first.body.id]);
  });
});

describe('a script journey with personal access tokens', () => {
  it('creates scoped tokens, uses them, lists and revokes them', async () => {
    const { token } = await registerAndLogin();
    const reader = await api.post<CreatedToken>(
      '/api/v1/auth/tokens',
      { name: 'reader', scopes: ['list:read'], expires_in_days: 7 },
      { token },
    );
    expect(reader.status).toBe(201);
    expect(reader.body).toEqual({
      id: expect.any(String),
      name: 'reader',
      prefix: reader.body.token.slice(0, 8),
      scopes: ['list:read'],
      created_at: expect.stringMatching(ISO_TIMESTAMP),
      expires_at: expect.stringMatching(ISO_TIMESTAMP),
      last_used_at: null,
      token: expect.stringMatching(/^mtp_[0-9A-Za-z]{38}$/),
    });
    const days = (Date.parse(reader.body.expires_at) - Date.parse(reader.body.created_at)) / 86_400_000;
    expect(Math.round(days)).toBe(7);
    const writer = await api.post<CreatedToken>('/api/v1/auth/tokens', { name: 'writer' }, { token });
    expect(writer.status).toBe(201);
    expect([...writer.body.scopes].sort()).toEqual([
      'catalog:write',
      'list:read',
      'list:write',
      'profile:read',
    ]);
    expect((await api.post<ErrorPayload>('/api/v1/auth/tokens', { name: 'writer' }, { token })).status).toBe(
      409,
    );
    const noScopes = await api.post<ErrorPayload>(
      '/api/v1/auth/tokens',
      { name: 'empty', scopes: [] },
      { token },
    );
    expect(noScopes.status).toBe(400);

    const entry = await api.post<CatalogEntry>(
      '/api/v1/movies',
      { title: unique('Scripted '), year: 2010 },
      { token: writer.body.token },
    );
    expect(entry.status).toBe(201);
    expect(
      (await api.post(`/api/v1/movies/list`, { item_id: entry.body.id }, { token: writer.body.token }))
        .status,
    ).toBe(201);
    const listed = await api.get<Page<ListEntry>>('/api/v1/movies/list', { token: reader.body.token });
    expect(listed.status).toBe(200);
    expect(listed.body.total).toBe(1);

    const forbidden = await api.post<ErrorPayload>(
      '/api/v1/movies/list',
      { item_id: entry.body.id },
      { token: reader.body.token },
    );
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.code).toBe('forbidden');
    expect(forbidden.body.error).toContain('list:write');
    // Token management needs the `account` scope, which a default PAT does not have.
    expect((await api.get<ErrorPayload>('/api/v1/auth/tokens', { token: writer.body.token })).status).toBe(
      403,
    );
    expect((await api.get<ErrorPayload>('/api/v1/auth/me', { token: reader.body.token })).status).toBe(403);
    expect((await api.get<User>('/api/v1/auth/me', { token: writer.body.token })).status).toBe(200);

    // A PAT with `account` may only hand out scopes it holds itself.
    const admin = await api.post<CreatedToken>(
      '/api/v1/auth/tokens',
      { name: 'admin', scopes: ['account', 'list:read'] },
      { token },
    );
    expect(admin.status).toBe(201);
    const escalation = await api.post<ErrorPayload>(
      '/api/v1/auth/tokens',
      { name: 'more', scopes: ['list:write'] },
      { token: admin.body.token },
    );
    expect(escalation.status).toBe(403);
    expect(
      (
        await api.post<CreatedToken>(
          '/api/v1/auth/tokens',
          { name: 'less', scopes: ['list:read'] },
          { token: admin.body.token },
        )
      ).status,
    ).toBe(201);

    const tokens = await api.get<TokenMetadata[]>('/api/v1/auth/tokens', { token });
    expect(tokens.status).toBe(200);
    expect(tokens.body.map((t) => t.name)).toEqual(['less', 'admin', 'writer', 'reader']);
    expect(JSON.stringify(tokens.body)).not.toContain(reader.body.token);

    const revoked = await api.delete<Message>(`/api/v1/auth/tokens/${reader.body.id}`, { token });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ message: expect.any(String) });
    const afterRevocation = await api.get<ErrorPayload>('/api/v1/movies/list', { token: reader.body.token });
    expect(afterRevocation.status).toBe(401);
    expect(afterRevocation.body.code).toBe('unauthorized');
    expect((await api.delete<ErrorPayload>(`/api/v1/auth/tokens/${reader.body.id}`, { token })).status).toBe(
      404,
    );
    expect((await api.get('/api/v1/movies/list', { token: writer.body.token })).status).toBe(200);
    expect(
      (await api.get<TokenMetadata[]>('/api/v1/auth/tokens', { token })).body.map((t) => t.name),
    ).toEqual(['less', 'admin', 'writer']);

    // A malformed credential is a 401 even on a public endpoint; a valid one there is ignored.
    expect((await api.get<ErrorPayload>('/api/v1/categories', { token: 'mtp_not-a-token' })).status).toBe(
      401,
    );
    expect((await api.get<Category[]>('/api/v1/categories', { token: writer.body.token })).status).toBe(200);
  });
});
