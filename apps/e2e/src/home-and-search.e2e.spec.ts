import type { ApiClient } from './support/api-client';
import type { CatalogEntry, ErrorPayload, LoginResponse, User } from './support/api-types';
import { itWithSeparateProcesses, startTestStack, type TestStack } from './support/test-stack';

/**
 * The gateway's aggregate endpoints (`GET /api/v1/home`, `GET /api/v1/search`) over a whole stack: real
 * catalog instances, MongoDB and Redis, every answer checked against the published OpenAPI document.
 */

interface HomeEntry {
  category: string;
  item: { id: string; title: string; year: number | null; description: string | null; poster_url: string | null; progress_total: number | null };
  status: string;
  progress: number | null;
  finished_at: string | null;
}
interface Home {
  up_next: HomeEntry[];
  planned: HomeEntry[];
  recently_finished: HomeEntry[];
  month: { month: string; finished: number; by_category: Array<{ category: string; total: number; by_status: Record<string, number>; finished_this_month: number }> };
  unavailable: Array<{ category: string; code: string; error: string }>;
}
interface SearchResults {
  q: string;
  groups: Array<{ category: string; display_name: string; total: number; results: Array<{ id: string; title: string; on_list: { status: string; progress: number | null } | null }> }>;
  unavailable: Array<{ category: string; code: string }>;
}

const PASSWORD = 'correct horse battery';
/** Short, so the test of a frozen category does not wait long; the others answer well within it. */
const AGGREGATE_TIMEOUT_MS = 2_000;

let stack: TestStack;
let api: ApiClient;

beforeAll(async () => {
  stack = await startTestStack({ name: 'home', appEnv: { gateway: { AGGREGATE_TIMEOUT_MS: String(AGGREGATE_TIMEOUT_MS) } } });
  api = stack.api;
}, 120_000);

afterAll(async () => {
  await stack?.stop();
}, 60_000);

let counter = 0;
const unique = (label: string) => `${label}${Date.now().toString(36)}${(counter++).toString(36)}`;
const thisMonth = () => new Date().toISOString().slice(0, 7);

async function registerAndLogin(): Promise<string> {
  const name = unique('home');
  expect((await api.post<User>('/api/v1/auth/register', { username: name, email: `${name}@example.com`, password: PASSWORD })).status).toBe(201);
  const login = await api.post<LoginResponse>('/api/v1/auth/login', { username: name, password: PASSWORD });
  return login.body.access_token;
}

async function createEntry(category: string, token: string, fields: Record<string, unknown>): Promise<CatalogEntry> {
  const created = await api.post<CatalogEntry>(`/api/v1/${category}`, { year: 2001, ...fields }, { token });
  expect(created.status).toBe(201);
  return created.body;
}

describe('GET /api/v1/home', () => {
  it('is empty for a new account, with a glance of every category', async () => {
    const token = await registerAndLogin();
    const home = await api.get<Home>('/api/v1/home', { token });
    expect(home.status).toBe(200);
    expect(home.headers.get('cache-control')).toBe('no-store');
    expect(home.body).toMatchObject({ up_next: [], planned: [], recently_finished: [], unavailable: [], month: { month: thisMonth(), finished: 0 } });
    expect(home.body.month.by_category.map((glance) => glance.category)).toEqual(['books', 'movies', 'tvshows']);
  });

  it('gathers what is being watched or read in every category, with its length, and what was finished, latest first', async () => {
    const token = await registerAndLogin();
    const show = await createEntry('tvshows', token, { title: unique('Show '), episodes: 62, description: 'A chemistry teacher' });
    const book = await createEntry('books', token, { title: unique('Book '), pages: 304 });
    const film = await createEntry('movies', token, { title: unique('Film '), runtime_minutes: 136 });
    const older = await createEntry('movies', token, { title: unique('Older ') });
    const someday = await createEntry('books', token, { title: unique('Someday ') });
    await api.post('/api/v1/books/list', { item_id: someday.id }, { token });
    await api.post('/api/v1/tvshows/list', { item_id: show.id, status: 'watching', progress: 3 }, { token });
    await api.post('/api/v1/books/list', { item_id: book.id, status: 'watching', progress: 120 }, { token });
    await api.post('/api/v1/movies/list', { item_id: older.id, status: 'completed', finished_at: '2020-05-01' }, { token });
    await api.post('/api/v1/movies/list', { item_id: film.id, status: 'completed' }, { token });

    const home = (await api.get<Home>('/api/v1/home', { token })).body;
    expect(home.unavailable).toEqual([]);
    // Last changed first: the book was added after the show.
    expect(home.up_next.map((entry) => [entry.category, entry.item.id, entry.progress, entry.item.progress_total])).toEqual([
      ['books', book.id, 120, 304],
      ['tvshows', show.id, 3, 62],
    ]);
    expect(home.up_next[1]!.item).toMatchObject({ description: 'A chemistry teacher', poster_url: null });
    expect(home.recently_finished.map((entry) => entry.item.id)).toEqual([film.id, older.id]);
    expect(home.planned.map((entry) => [entry.category, entry.item.id, entry.status])).toEqual([['books', someday.id, 'plan_to_watch']]);
    expect(home.month.finished).toBe(1);
    const movies = home.month.by_category.find((glance) => glance.category === 'movies')!;
    expect(movies).toMatchObject({ total: 2, finished_this_month: 1, by_status: { completed: 2, watching: 0 } });
  });

  it('answers 401 without a credential and 403 to a token without list:read', async () => {
    expect((await api.get<ErrorPayload>('/api/v1/home')).status).toBe(401);
    const token = await registerAndLogin();
    const pat = await api.post<{ token: string }>('/api/v1/auth/tokens', { name: 'profile only', scopes: ['profile:read'] }, { token });
    const refused = await api.get<ErrorPayload>('/api/v1/home', { token: pat.body.token });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatch(/list:read/);
  });

  it('refuses a query parameter with 400', async () => {
    const token = await registerAndLogin();
    const res = await api.get<ErrorPayload>('/api/v1/home?limit=5', { token });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
  });
});

describe('GET /api/v1/search', () => {
  it("searches every category at once, grouped by category, marking what is on the caller's list", async () => {
    const token = await registerAndLogin();
    const word = unique('Quasar');
    const film = await createEntry('movies', token, { title: `${word} Rising` });
    const book = await createEntry('books', token, { title: `${word} Chronicles` });
    await api.post('/api/v1/books/list', { item_id: book.id, status: 'watching', progress: 10 }, { token });

    const found = (await api.get<SearchResults>(`/api/v1/search?q=${encodeURIComponent(word.toLowerCase())}`, { token })).body;
    expect(found.unavailable).toEqual([]);
    expect(found.groups.map((group) => [group.category, group.total])).toEqual([
      ['books', 1],
      ['movies', 1],
      ['tvshows', 0],
    ]);
    expect(found.groups[0]!.results).toEqual([expect.objectContaining({ id: book.id, on_list: { status: 'watching', progress: 10, score: null } })]);
    expect(found.groups[1]!.results).toEqual([expect.objectContaining({ id: film.id, on_list: null })]);

    // Anonymous: the same results, nothing marked.
    const anonymous = (await api.get<SearchResults>(`/api/v1/search?q=${encodeURIComponent(word)}`)).body;
    expect(anonymous.groups.flatMap((group) => group.results.map((hit) => hit.on_list))).toEqual([null, null]);
  });

  it('bounds the results per category with limit', async () => {
    const token = await registerAndLogin();
    const word = unique('Nebula');
    for (const suffix of ['One', 'Two', 'Three']) await createEntry('tvshows', token, { title: `${word} ${suffix}` });
    const found = (await api.get<SearchResults>(`/api/v1/search?q=${word}&limit=2`)).body;
    const shows = found.groups.find((group) => group.category === 'tvshows')!;
    expect(shows.total).toBe(3);
    expect(shows.results).toHaveLength(2);
  });

  it.each([
    ['no q', ''],
    ['an empty q', '?q=%20'],
    ['a q over 200 characters', `?q=${'a'.repeat(201)}`],
    ['a limit over 20', '?q=x&limit=21'],
    ['an unknown parameter', '?q=x&category=movies'],
  ])('refuses %s with 400', async (_case, query) => {
    const res = await api.get<ErrorPayload>(`/api/v1/search${query}`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
  });
});

describe('a category that does not answer', () => {
  itWithSeparateProcesses(
    'is reported as unavailable while the other categories answer, and the answer is still a 200',
    'it freezes one catalog process',
    async () => {
      const token = await registerAndLogin();
      const film = await createEntry('movies', token, { title: unique('Frozen ') });
      await api.post('/api/v1/movies/list', { item_id: film.id, status: 'watching' }, { token });
      const books = stack.stack.process('catalog-books');
      books.kill('SIGSTOP');
      try {
        const startedAt = Date.now();
        const home = await api.get<Home>('/api/v1/home', { token });
        expect(Date.now() - startedAt).toBeLessThan(AGGREGATE_TIMEOUT_MS + 3_000);
        expect(home.status).toBe(200);
        expect(home.body.unavailable).toEqual([{ category: 'books', code: 'gateway_timeout', error: expect.any(String) }]);
        expect(home.body.up_next.map((entry) => entry.item.id)).toEqual([film.id]);
        const found = await api.get<SearchResults>(`/api/v1/search?q=${encodeURIComponent(film.title)}`);
        expect(found.status).toBe(200);
        expect(found.body.groups.map((group) => group.category)).toEqual(['movies', 'tvshows']);
        expect(found.body.unavailable).toEqual([expect.objectContaining({ category: 'books', code: 'gateway_timeout' })]);
      } finally {
        books.kill('SIGCONT');
      }
    },
    30_000,
  );
});

describe('GET /api/v1/entries/{category}/{id}', () => {
  interface EntryPage {
    item: { id: string; title: string };
    list_entry: { item_id: string; status: string } | null;
  }

  it("answers the catalog entry with the caller's list entry, null (never a 404) when it is not on the list", async () => {
    const token = await registerAndLogin();
    const film = await createEntry('movies', token, { title: unique('Paged ') });
    const anonymous = await api.get<EntryPage>(`/api/v1/entries/movies/${film.id}`);
    expect(anonymous.status).toBe(200);
    expect(anonymous.body).toMatchObject({ item: { id: film.id, title: film.title }, list_entry: null });
    const notListed = await api.get<EntryPage>(`/api/v1/entries/movies/${film.id}`, { token });
    expect(notListed.status).toBe(200);
    expect(notListed.body.list_entry).toBeNull();
    await api.post('/api/v1/movies/list', { item_id: film.id, status: 'watching' }, { token });
    const listed = await api.get<EntryPage>(`/api/v1/entries/movies/${film.id}`, { token });
    expect(listed.body.list_entry).toMatchObject({ item_id: film.id, status: 'watching' });
  });

  it('answers 404 for an unknown entry or category and 400 for a malformed id', async () => {
    expect((await api.get<ErrorPayload>(`/api/v1/entries/movies/${'f'.repeat(24)}`)).status).toBe(404);
    expect((await api.get<ErrorPayload>(`/api/v1/entries/films/${'f'.repeat(24)}`)).status).toBe(404);
    const malformed = await api.get<ErrorPayload>('/api/v1/entries/movies/not-an-id');
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('validation_failed');
  });
});

describe('GET /api/v1/entries/{category}?ids=', () => {
  it('says which works of a page of results are on the list, and how', async () => {
    const token = await registerAndLogin();
    const listed = await createEntry('books', token, { title: unique('Marked ') });
    const other = await createEntry('books', token, { title: unique('Unmarked ') });
    await api.post('/api/v1/books/list', { item_id: listed.id, status: 'watching', progress: 12 }, { token });
    const marks = await api.get<Record<string, unknown>>(`/api/v1/entries/books?ids=${listed.id},${other.id}`, { token });
    expect(marks.status).toBe(200);
    expect(marks.body).toEqual({ [listed.id]: { status: 'watching', progress: 12, score: null }, [other.id]: null });
  });

  it('needs list:read, and refuses more than 20 ids or a malformed one with 400', async () => {
    const token = await registerAndLogin();
    const id = 'a'.repeat(24);
    expect((await api.get<ErrorPayload>(`/api/v1/entries/books?ids=${id}`)).status).toBe(401);
    expect((await api.get<ErrorPayload>(`/api/v1/entries/books?ids=${Array(21).fill(id).join(',')}`, { token })).status).toBe(400);
    expect((await api.get<ErrorPayload>('/api/v1/entries/books?ids=nope', { token })).status).toBe(400);
    expect((await api.get<ErrorPayload>('/api/v1/entries/books', { token })).status).toBe(400);
  });
});
