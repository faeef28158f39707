import request from 'supertest';
import { catalogSchemas } from './catalog.schemas';
import { getCategory } from '../../domain/categories';
import { startCatalogHarness, type CatalogHarness } from '../../../test/catalog-harness';
import { asUser, newUserId } from '../../../test/identity-headers';

const movies = catalogSchemas(getCategory('movies'));

describe('catalog entries (movies)', () => {
  let h: CatalogHarness;
  const alice = newUserId();
  const bob = newUserId();
  beforeAll(async () => {
    h = await startCatalogHarness({ category: 'movies' });
  });
  afterAll(() => h.close());

  const create = (body: object, user = alice) => request(h.app).post('/api/v1/movies').set(asUser(user)).send(body);

  it('creates an entry with every field, defaults the rest to null or [], and reads it back', async () => {
    const res = await create({ title: '  The Matrix  ', year: 1999, genres: ['Science Fiction'], runtime_minutes: 136, director: 'Lana Wachowski' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      title: 'The Matrix',
      year: 1999,
      description: null,
      genres: ['Science Fiction'],
      external_ids: {},
      poster_url: null,
      poster: null,
      created_by: alice,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updated_at: res.body.created_at,
      runtime_minutes: 136,
      director: 'Lana Wachowski',
    });
    expect(res.headers['location']).toBe(`/api/v1/movies/${res.body.id}`);
    expect(movies.Entry.parse(res.body)).toBeTruthy();
    const fetched = await request(h.app).get(`/api/v1/movies/${res.body.id}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(res.body);
  });

  it('rejects a duplicate title (case- and accent-insensitive) and year with 409 and existing_id', async () => {
    const first = await create({ title: 'Amélie', year: 2001 });
    expect(first.status).toBe(201);
    const dup = await create({ title: 'AMELIE', year: 2001 }, bob);
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ status: 409, code: 'conflict', existing_id: first.body.id, error: expect.any(String) });
    expect(dup.body.request_id).toBe(dup.headers['x-request-id']);
    // Another year is another entry.
    expect((await create({ title: 'Amélie', year: 2002 })).status).toBe(201);
  });

  it('treats two entries without a year and the same folded title as duplicates', async () => {
    const first = await create({ title: 'Untitled  Project' });
    expect(first.status).toBe(201);
    const dup = await create({ title: 'untitled project', year: null });
    expect(dup.status).toBe(409);
    expect(dup.body.existing_id).toBe(first.body.id);
  });

  it('lets exactly one of several simultaneous identical creates win, without a check-then-insert race', async () => {
    const results = await Promise.all(Array.from({ length: 5 }, () => create({ title: 'Race Condition', year: 2024 })));
    const created = results.filter((res) => res.status === 201);
    expect(created).toHaveLength(1);
    for (const res of results.filter((r) => r.status !== 201)) {
      expect(res.status).toBe(409);
      expect(res.body.existing_id).toBe(created[0]!.body.id);
    }
  });

  it('counts simultaneous creates exactly in the listing total', async () => {
    const before = (await request(h.app).get('/api/v1/movies')).body.total;
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => create({ title: `Parallel ${i}` })));
    expect(results.map((res) => res.status)).toEqual(Array(8).fill(201));
    expect((await request(h.app).get('/api/v1/movies')).body.total).toBe(before + 8);
  });

  it('lets only the creator patch, and re-checks duplicates on patch', async () => {
    const entry = await create({ title: 'Heat', year: 1995 });
    const other = await create({ title: 'Ronin', year: 1998 });
    const byBob = await request(h.app).patch(`/api/v1/movies/${entry.body.id}`).set(asUser(bob)).send({ year: 1996 });
    expect(byBob.status).toBe(403);
    expect(byBob.body.code).toBe('forbidden');

    const patched = await request(h.app)
      .patch(`/api/v1/movies/${entry.body.id}`)
      .set(asUser(alice))
      .send({ description: 'A heist.', director: 'Michael Mann', runtime_minutes: null });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id: entry.body.id, title: 'Heat', description: 'A heist.', director: 'Michael Mann', runtime_minutes: null });
    expect(Date.parse(patched.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(entry.body.updated_at));
    expect(patched.body.created_at).toBe(entry.body.created_at);

    const clash = await request(h.app).patch(`/api/v1/movies/${entry.body.id}`).set(asUser(alice)).send({ title: 'RONIN', year: 1998 });
    expect(clash.status).toBe(409);
    expect(clash.body.existing_id).toBe(other.body.id);
    // Nothing changed.
    expect((await request(h.app).get(`/api/v1/movies/${entry.body.id}`)).body.title).toBe('Heat');
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    const unknown = await request(h.app).get(`/api/v1/movies/${'a'.repeat(24)}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('not_found');
    const malformed = await request(h.app).get('/api/v1/movies/not-an-id');
    expect(malformed.status).toBe(400);
    expect(malformed.body.details).toEqual([{ path: 'id', message: expect.any(String) }]);
    const patchUnknown = await request(h.app).patch(`/api/v1/movies/${'b'.repeat(24)}`).set(asUser(alice)).send({ year: 2000 });
    expect(patchUnknown.status).toBe(404);
  });

  it.each([
    ['no title', {}, 'title'],
    ['an empty title', { title: '' }, 'title'],
    ['a blank title', { title: '   ' }, 'title'],
    ['a 301-character title', { title: 'x'.repeat(301) }, 'title'],
    ['year 1869', { title: 'A', year: 1869 }, 'year'],
    ['year 2101', { title: 'A', year: 2101 }, 'year'],
    ['a fractional year', { title: 'A', year: 2000.5 }, 'year'],
    ['a year as a string', { title: 'A', year: '2000' }, 'year'],
    ['a 5001-character description', { title: 'A', description: 'x'.repeat(5001) }, 'description'],
    ['21 genres', { title: 'A', genres: Array.from({ length: 21 }, (_, i) => `g${i}`) }, 'genres'],
    ['an empty genre', { title: 'A', genres: [''] }, 'genres.0'],
    ['a 51-character genre', { title: 'A', genres: ['x'.repeat(51)] }, 'genres.0'],
    ['null genres', { title: 'A', genres: null }, 'genres'],
    ['runtime 0', { title: 'A', runtime_minutes: 0 }, 'runtime_minutes'],
    ['runtime 10001', { title: 'A', runtime_minutes: 10001 }, 'runtime_minutes'],
    ['a 201-character director', { title: 'A', director: 'x'.repeat(201) }, 'director'],
    ['a field of another category', { title: 'A', seasons: 3 }, 'seasons'],
    ['a read-only field', { title: 'A', created_by: 'me' }, 'created_by'],
  ])('rejects a movie with %s (400 naming %s)', async (_case, body, path) => {
    const res = await create(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_failed', status: 400 });
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('rejects an empty patch, an unknown field, and a null title', async () => {
    const entry = await create({ title: 'Patch target', year: 2010 });
    for (const body of [{}, { rating: 5 }, { title: null }]) {
      const res = await request(h.app).patch(`/api/v1/movies/${entry.body.id}`).set(asUser(alice)).send(body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('validation_failed');
    }
  });

  it('answers 415 for a body that is not JSON and 400 for malformed JSON', async () => {
    const text = await request(h.app).post('/api/v1/movies').set(asUser(alice)).set('Content-Type', 'text/plain').send('title=x');
    expect(text.status).toBe(415);
    const broken = await request(h.app).post('/api/v1/movies').set(asUser(alice)).set('Content-Type', 'application/json').send('{"title":');
    expect(broken.status).toBe(400);
    expect(broken.body.code).toBe('validation_failed');
  });

  it('answers 405 with Allow for a known path and an unsupported method', async () => {
    const res = await request(h.app).put(`/api/v1/movies/${'a'.repeat(24)}`).set(asUser(alice)).send({ title: 'x' });
    expect(res.status).toBe(405);
    expect(res.headers['allow']).toContain('PATCH');
    expect(res.headers['allow']).toContain('DELETE');
  });
});

describe('catalog entries: each category validates its own fields', () => {
  const user = newUserId();

  describe('tvshows', () => {
    let h: CatalogHarness;
    beforeAll(async () => {
      h = await startCatalogHarness({ category: 'tvshows' });
    });
    afterAll(() => h.close());

    it('stores seasons, episodes and network', async () => {
      const res = await request(h.app).post('/api/v1/tvshows').set(asUser(user)).send({ title: 'Breaking Bad', year: 2008, seasons: 5, episodes: 62, network: 'AMC' });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ seasons: 5, episodes: 62, network: 'AMC' });
      expect(res.body).not.toHaveProperty('runtime_minutes');
      expect(catalogSchemas(getCategory('tvshows')).Entry.parse(res.body)).toBeTruthy();
    });

    it.each([
      ['-1 seasons', { title: 'T', seasons: -1 }, 'seasons'],
      ['1001 seasons', { title: 'T', seasons: 1001 }, 'seasons'],
      ['100001 episodes', { title: 'T', episodes: 100001 }, 'episodes'],
      ['a 201-character network', { title: 'T', network: 'x'.repeat(201) }, 'network'],
      ['a movie field', { title: 'T', runtime_minutes: 50 }, 'runtime_minutes'],
    ])('rejects a show with %s (400 naming %s)', async (_case, body, path) => {
      const res = await request(h.app).post('/api/v1/tvshows').set(asUser(user)).send(body);
      expect(res.status).toBe(400);
      expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
    });

    it('accepts zero seasons and episodes', async () => {
      const res = await request(h.app).post('/api/v1/tvshows').set(asUser(user)).send({ title: 'Pilot only', seasons: 0, episodes: 0 });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ seasons: 0, episodes: 0, network: null, year: null });
    });
  });

  describe('books', () => {
    let h: CatalogHarness;
    beforeAll(async () => {
      h = await startCatalogHarness({ category: 'books' });
    });
    afterAll(() => h.close());

    it('stores authors and pages, and the ISBN as digits', async () => {
      const res = await request(h.app)
        .post('/api/v1/books')
        .set(asUser(user))
        .send({ title: 'The Left Hand of Darkness', year: 1969, authors: ['Ursula K. Le Guin'], isbn: '978-0-441-47812-5', pages: 304 });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ authors: ['Ursula K. Le Guin'], isbn: '9780441478125', pages: 304 });
      expect(catalogSchemas(getCategory('books')).Entry.parse(res.body)).toBeTruthy();
    });

    it('accepts an ISBN-10 with an X check digit and defaults authors to []', async () => {
      const res = await request(h.app).post('/api/v1/books').set(asUser(user)).send({ title: 'Check digit X', isbn: '0-8044-2957-x' });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ isbn: '080442957X', authors: [], pages: null });
    });

    it.each([
      ['an ISBN-13 with a wrong check digit', { title: 'B', isbn: '978-0-441-47812-4' }, 'isbn'],
      ['an ISBN-10 with a wrong check digit', { title: 'B', isbn: '0-8044-2957-1' }, 'isbn'],
      ['a 5-digit ISBN', { title: 'B', isbn: '12345' }, 'isbn'],
      ['an ISBN with spaces', { title: 'B', isbn: '978 0 441 47812 5' }, 'isbn'],
      ['an ISBN with a leading hyphen', { title: 'B', isbn: '-9780441478125' }, 'isbn'],
      ['0 pages', { title: 'B', pages: 0 }, 'pages'],
      ['100001 pages', { title: 'B', pages: 100001 }, 'pages'],
      ['21 authors', { title: 'B', authors: Array.from({ length: 21 }, (_, i) => `a${i}`) }, 'authors'],
      ['a 201-character author', { title: 'B', authors: ['x'.repeat(201)] }, 'authors.0'],
      ['a movie field', { title: 'B', director: 'Someone' }, 'director'],
    ])('rejects a book with %s (400 naming %s)', async (_case, body, path) => {
      const res = await request(h.app).post('/api/v1/books').set(asUser(user)).send(body);
      expect(res.status).toBe(400);
      expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
    });

    it('validates and normalises the ISBN on patch too', async () => {
      const created = await request(h.app).post('/api/v1/books').set(asUser(user)).send({ title: 'Patched ISBN' });
      const bad = await request(h.app).patch(`/api/v1/books/${created.body.id}`).set(asUser(user)).send({ isbn: '9780441478120' });
      expect(bad.status).toBe(400);
      const good = await request(h.app).patch(`/api/v1/books/${created.body.id}`).set(asUser(user)).send({ isbn: '0-306-40615-2' });
      expect(good.status).toBe(200);
      expect(good.body.isbn).toBe('0306406152');
    });
  });
});
