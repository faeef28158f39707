import { personSearchMigration } from '../../migrations/005-person-search';
import request from 'supertest';
import { startCatalogHarness, type CatalogHarness } from '../../../test/catalog-harness';
import { asUser, newUserId } from '../../../test/identity-headers';
import { COLLECTIONS } from '../../data/database';

const user = newUserId();
const titlesOf = (res: request.Response) => res.body.data.map((entry: { title: string }) => entry.title);

describe('person= search (movies: director)', () => {
  let h: CatalogHarness;
  beforeAll(async () => {
    h = await startCatalogHarness({ category: 'movies' });
    for (const body of [
      { title: 'The Matrix', year: 1999, director: 'Lana Wachowski' },
      { title: 'Bound', year: 1996, director: 'Lilly Wachowski' },
      { title: 'Todo sobre mi madre', year: 1999, director: 'Pedro Almodóvar' },
      { title: 'No Director' },
    ]) {
      expect((await request(h.app).post('/api/v1/movies').set(asUser(user)).send(body)).status).toBe(201);
    }
  });
  afterAll(() => h.close());

  const search = (query: string) => request(h.app).get(`/api/v1/movies?${query}`);

  it('matches whole words and word prefixes, case- and accent-insensitively, every word', async () => {
    expect(titlesOf(await search('person=wach'))).toEqual(['Bound', 'The Matrix']);
    expect(titlesOf(await search(`person=${encodeURIComponent('LANA wach')}`))).toEqual(['The Matrix']);
    expect(titlesOf(await search('person=almodovar'))).toEqual(['Todo sobre mi madre']);
    expect(titlesOf(await search('person=achowski'))).toEqual([]);
  });

  it('combines with q, other filters and cursors, with an exact total', async () => {
    expect(titlesOf(await search('person=wachowski&q=matrix'))).toEqual(['The Matrix']);
    expect(titlesOf(await search('person=wachowski&year=1996'))).toEqual(['Bound']);
    const first = await search('person=wachowski&cursor=start&limit=1');
    expect(first.body).toMatchObject({ total: 2, next_cursor: expect.any(String) });
    const second = await search(`person=wachowski&limit=1&cursor=${first.body.next_cursor}`);
    expect(titlesOf(second)).toEqual(['The Matrix']);
  });

  it('follows a changed director', async () => {
    const found = await search('person=lilly');
    const id = found.body.data[0].id as string;
    expect((await request(h.app).patch(`/api/v1/movies/${id}`).set(asUser(user)).send({ director: 'Someone Else' })).status).toBe(200);
    expect((await search('person=lilly')).body.total).toBe(0);
    expect(titlesOf(await search('person=someone'))).toEqual(['Bound']);
  });

  it.each(['person=', 'person=%21%3F', `person=${'a'.repeat(201)}`, 'isbn=9780441478125'])('rejects %s with 400', async (query) => {
    const res = await search(query);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
  });

  it('backfills the person keys of entries written before person search at start-up', async () => {
    const entries = h.module.connection.db!.collection(COLLECTIONS.entries);
    await entries.updateMany({}, { $unset: { person_prefixes: '' } });
    expect((await search('person=wach')).body.total).toBe(0);
    expect(await personSearchMigration.run(h.module.migrationContext)).toEqual({ entries: 4 });
    expect(titlesOf(await search('person=wach'))).toEqual(['The Matrix']);
    expect(titlesOf(await search('person=someone'))).toEqual(['Bound']);
    expect(await personSearchMigration.run(h.module.migrationContext)).toEqual({ entries: 0 });
  });
});

describe('person= and isbn= search (books)', () => {
  let h: CatalogHarness;
  beforeAll(async () => {
    h = await startCatalogHarness({ category: 'books' });
    for (const body of [
      { title: 'Good Omens', authors: ['Terry Pratchett', 'Neil Gaiman'], isbn: '0-575-04800-X' },
      { title: 'The Left Hand of Darkness', authors: ['Ursula K. Le Guin'], isbn: '978-0-441-47812-5' },
    ]) {
      expect((await request(h.app).post('/api/v1/books').set(asUser(user)).send(body)).status).toBe(201);
    }
  });
  afterAll(() => h.close());

  const search = (query: string) => request(h.app).get(`/api/v1/books?${query}`);

  it('finds a book by any of its authors', async () => {
    expect(titlesOf(await search('person=gaiman'))).toEqual(['Good Omens']);
    expect(titlesOf(await search('person=pratch'))).toEqual(['Good Omens']);
    expect(titlesOf(await search(`person=${encodeURIComponent('le guin')}`))).toEqual(['The Left Hand of Darkness']);
  });

  it('finds a book by ISBN with or without hyphens, as ISBN-10 or ISBN-13', async () => {
    for (const isbn of ['978-0-441-47812-5', '9780441478125', '0441478123', '0-441-47812-3']) {
      expect(titlesOf(await search(`isbn=${isbn}`))).toEqual(['The Left Hand of Darkness']);
    }
    expect(titlesOf(await search('isbn=057504800X'))).toEqual(['Good Omens']);
    expect((await search('isbn=9780306406157')).body.total).toBe(0);
  });

  it.each(['isbn=123', 'isbn=9780441478126', 'isbn='])('rejects %s with 400', async (query) => {
    expect((await search(query)).status).toBe(400);
  });
});
