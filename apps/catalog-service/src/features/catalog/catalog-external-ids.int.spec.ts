import { externalIdsMigration } from '../../migrations/001-external-ids';
import request from 'supertest';
import { startCatalogHarness, type CatalogHarness } from '../../../test/catalog-harness';
import { asUser, newUserId } from '../../../test/identity-headers';
import { TransactionContentionError } from '../../data/atomic';
import { COLLECTIONS } from '../../data/database';

const RACE_TRIALS = Number(process.env['RACE_TRIALS'] ?? 3);

describe('external ids and lookup: movies', () => {
  let h: CatalogHarness;
  const user = newUserId();
  beforeAll(async () => {
    h = await startCatalogHarness({ category: 'movies' });
  });
  afterAll(() => h.close());

  const create = (body: object, app = h.app) => request(app).post('/api/v1/movies').set(asUser(user)).send(body);
  const patch = (id: string, body: object) => request(h.app).patch(`/api/v1/movies/${id}`).set(asUser(user)).send(body);
  const lookup = (query: string) => request(h.app).get(`/api/v1/movies?${query}`);

  it('stores and returns external ids, {} when none are known', async () => {
    const plain = await create({ title: 'No Ids At All' });
    expect(plain.status).toBe(201);
    expect(plain.body.external_ids).toEqual({});
    const res = await create({ title: 'The Shawshank Redemption', year: 1994, external_ids: { imdb: 'tt0111161', tmdb: '278' } });
    expect(res.status).toBe(201);
    expect(res.body.external_ids).toEqual({ imdb: 'tt0111161', tmdb: '278' });
    expect((await request(h.app).get(`/api/v1/movies/${res.body.id}`)).body.external_ids).toEqual({ imdb: 'tt0111161', tmdb: '278' });
  });

  it.each([
    [{ tvdb: '1' }, 'external_ids.tvdb'],
    [{ imdb: '0111161' }, 'external_ids.imdb'],
    [{ imdb: 'tt123' }, 'external_ids.imdb'],
    [{ tmdb: '0' }, 'external_ids.tmdb'],
    [{ tmdb: 278 }, 'external_ids.tmdb'],
  ])('rejects external ids %j with 400 naming %s', async (externalIds, path) => {
    const res = await create({ title: 'Bad Ids', external_ids: externalIds });
    expect(res.status).toBe(400);
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('looks an entry up by external id, alone or with page/limit/cursor', async () => {
    const created = await create({ title: 'Lookup Target', external_ids: { imdb: 'tt7654321' } });
    const found = await lookup('external_id=imdb:tt7654321');
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({ total: 1, page: 1, total_pages: 1, next_cursor: null });
    expect(found.body.data.map((e: { id: string }) => e.id)).toEqual([created.body.id]);
    expect((await lookup('external_id=imdb:tt7654321&limit=5&page=1')).body.total).toBe(1);
    expect((await lookup('external_id=imdb:tt7654321&cursor=start')).body.data).toHaveLength(1);
    expect((await lookup('external_id=imdb:tt7654321&page=2')).body).toMatchObject({ data: [], total: 1 });
    const none = await lookup('external_id=tmdb:999999');
    expect(none.body).toEqual({ data: [], page: 1, limit: 20, total: 0, total_pages: 0, next_cursor: null });
  });

  it.each(['external_id=imdb', 'external_id=imdb:', 'external_id=imdb:123', 'external_id=isbn13:9780441478125', 'external_id=:tt1234567', 'external_id=imdb:tt1234567&q=x', 'external_id=imdb:tt1234567&sort=year', 'external_id=imdb:tt1234567&genre=drama'])(
    'rejects the lookup %s with 400',
    async (query) => {
      const res = await lookup(query);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('validation_failed');
    },
  );

  it('refuses a second entry claiming a pair with 409 and existing_id, on create and on patch, changing nothing', async () => {
    const first = await create({ title: 'Pair Owner', external_ids: { imdb: 'tt1000001' } });
    const second = await create({ title: 'Pair Thief', external_ids: { imdb: 'tt1000001' } });
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ code: 'conflict', existing_id: first.body.id });
    expect((await lookup('q=pair%20thief')).body.total).toBe(0);
    const other = await create({ title: 'Pair Other', external_ids: { tmdb: '42' } });
    const stolen = await patch(other.body.id, { title: 'Pair Other Renamed', external_ids: { imdb: 'tt1000001' } });
    expect(stolen.status).toBe(409);
    expect(stolen.body.existing_id).toBe(first.body.id);
    const unchanged = await request(h.app).get(`/api/v1/movies/${other.body.id}`);
    expect(unchanged.body).toMatchObject({ title: 'Pair Other', external_ids: { tmdb: '42' } });
  });

  it('changes only the keys a patch names; null removes a key, which another entry may then claim', async () => {
    const owner = await create({ title: 'Key Dropper', external_ids: { imdb: 'tt2000002', tmdb: '7' } });
    const changed = await patch(owner.body.id, { external_ids: { imdb: null } });
    expect(changed.status).toBe(200);
    expect(changed.body.external_ids).toEqual({ tmdb: '7' });
    const claimer = await create({ title: 'Key Claimer', external_ids: { imdb: 'tt2000002' } });
    expect(claimer.status).toBe(201);
    expect((await patch(owner.body.id, { external_ids: { tmdb: null } })).body.external_ids).toEqual({});
    expect((await patch(owner.body.id, { year: 2000 })).body.external_ids).toEqual({});
  });

  it('is enforced by a unique index on the server itself (a direct duplicate insert fails)', async () => {
    const entries = h.module.connection.db!.collection(COLLECTIONS.entries);
    const indexes = await entries.indexes();
    expect(indexes.find((index) => index.name === 'external_ids_unique')).toMatchObject({ unique: true, key: { external_keys: 1 } });
    await entries.insertOne({ title: 'raw a', title_key: 'raw a', year: 1, external_keys: ['imdb:tt3000003'] });
    await expect(entries.insertOne({ title: 'raw b', title_key: 'raw b', year: 2, external_keys: ['imdb:tt3000003'] })).rejects.toMatchObject({ code: 11000 });
    // Entries without ids do not collide with each other.
    await entries.insertOne({ title: 'raw c', title_key: 'raw c', year: 3 });
    await entries.insertOne({ title: 'raw d', title_key: 'raw d', year: 4 });
  });

  describe('when the store keeps reporting write conflicts until the retries run out', () => {
    // What racing claimants on several instances can do to each other on a loaded server (seen in CI): every
    // transaction of this instance now ends that way, the data and its indexes stay real.
    let contended: jest.SpyInstance | undefined;
    const contend = () => {
      contended = jest.spyOn(h.module.atomic, 'run').mockRejectedValue(new TransactionContentionError('still conflicting after 10 attempts'));
    };
    afterEach(() => contended?.mockRestore());

    it('answers a patch claiming an external id that another entry now holds with 409 naming it, not 503', async () => {
      const holder = await create({ title: 'Contended Holder', external_ids: { tmdb: '7700001' } });
      const claimant = await create({ title: 'Contended Claimant' });
      contend();
      const res = await patch(claimant.body.id, { external_ids: { tmdb: '7700001' } });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ code: 'conflict', existing_id: holder.body.id });
      const free = await patch(claimant.body.id, { external_ids: { tmdb: '7700002' } });
      expect(free.status).toBe(503);
      contended?.mockRestore();
      expect((await request(h.app).get(`/api/v1/movies/${claimant.body.id}`)).body.external_ids).toEqual({});
    });

    it('answers a creation that lost to another instance (its title or external id now held) with 409 naming the winner, not 503', async () => {
      const second = await startCatalogHarness({ category: 'movies', dbName: h.dbName });
      try {
        for (const [mine, theirs] of [
          [{ title: 'Contended Original', year: 2001 }, { title: 'Contended Original', year: 2001 }],
          [{ title: 'Contended Other Title', external_ids: { imdb: 'tt7700001' } }, { title: 'Contended Winner', external_ids: { imdb: 'tt7700001' } }],
        ]) {
          let winner: request.Response | undefined;
          // While this instance's transaction keeps conflicting, the other instance's creation commits.
          contended = jest.spyOn(h.module.atomic, 'run').mockImplementation(async () => {
            winner = await create(theirs, second.app);
            throw new TransactionContentionError('still conflicting after 10 attempts');
          });
          const res = await create(mine);
          contended.mockRestore();
          expect(winner?.status).toBe(201);
          expect(res.status).toBe(409);
          expect(res.body).toMatchObject({ code: 'conflict', existing_id: winner?.body.id });
        }
        contend();
        expect((await create({ title: 'Contended Newcomer' })).status).toBe(503);
      } finally {
        await second.close({ keepDatabase: true });
      }
    });
  });

  it(`keeps every key of concurrent patches of different keys, and gives a pair claimed by racing patches to one entry (${RACE_TRIALS} trials)`, async () => {
    for (let trial = 0; trial < RACE_TRIALS; trial++) {
      const entry = await create({ title: `Patch Race ${trial}` });
      const [a, b] = await Promise.all([patch(entry.body.id, { external_ids: { imdb: `tt${5_000_000 + trial}` } }), patch(entry.body.id, { external_ids: { tmdb: String(500 + trial) } })]);
      expect([a.status, b.status]).toEqual([200, 200]);
      expect((await request(h.app).get(`/api/v1/movies/${entry.body.id}`)).body.external_ids).toEqual({ imdb: `tt${5_000_000 + trial}`, tmdb: String(500 + trial) });
      const claimants = await Promise.all(Array.from({ length: 6 }, (_, i) => create({ title: `Patch Claimant ${trial} ${i}` })));
      const claims = await Promise.all(claimants.map((c) => patch(c.body.id, { external_ids: { tmdb: String(900_000 + trial) } })));
      expect(claims.map((res) => res.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
      const winner = claims.find((res) => res.status === 200)!;
      for (const res of claims.filter((r) => r.status === 409)) expect(res.body.existing_id).toBe(winner.body.id);
    }
  }, 120_000);

  it(`answers concurrent creations of different titles with one external id with one 201 and 409s naming it (${RACE_TRIALS} trials)`, async () => {
    const second = await startCatalogHarness({ category: 'movies', dbName: h.dbName });
    try {
      for (let trial = 0; trial < RACE_TRIALS; trial++) {
        const imdb = `tt${String(4_000_000 + trial).padStart(7, '0')}`;
        const results = await Promise.all(
          Array.from({ length: 12 }, (_, i) => create({ title: `Racer${trial}x candidate ${i}`, external_ids: { imdb } }, i % 2 ? second.app : h.app)),
        );
        const statuses = results.map((res) => res.status).sort();
        expect({ trial, statuses }).toEqual({ trial, statuses: [201, ...Array(11).fill(409)] });
        const winner = results.find((res) => res.status === 201)!;
        for (const res of results.filter((r) => r.status === 409)) expect(res.body.existing_id).toBe(winner.body.id);
        const found = await lookup(`external_id=imdb:${imdb}`);
        expect(found.body.data.map((e: { id: string }) => e.id)).toEqual([winner.body.id]);
        expect((await lookup(`q=racer${trial}x`)).body.total).toBe(1);
      }
    } finally {
      await second.close({ keepDatabase: true });
    }
  }, 120_000);
});

describe('external ids: books (isbn13 derived from isbn)', () => {
  let h: CatalogHarness;
  const user = newUserId();
  beforeAll(async () => {
    h = await startCatalogHarness({ category: 'books' });
  });
  afterAll(() => h.close());

  const create = (body: object) => request(h.app).post('/api/v1/books').set(asUser(user)).send(body);

  it('derives isbn13 from an ISBN-10 or ISBN-13, keeps it in step with isbn, and refuses setting it', async () => {
    const book = await create({ title: 'Derived Isbn', isbn: '0-306-40615-2', external_ids: { openlibrary: 'OL123W', goodreads: '555' } });
    expect(book.status).toBe(201);
    expect(book.body.external_ids).toEqual({ isbn13: '9780306406157', openlibrary: 'OL123W', goodreads: '555' });
    const found = await request(h.app).get('/api/v1/books?external_id=isbn13:9780306406157');
    expect(found.body.data.map((e: { id: string }) => e.id)).toEqual([book.body.id]);
    const changed = await request(h.app).patch(`/api/v1/books/${book.body.id}`).set(asUser(user)).send({ isbn: '978-0-441-47812-5' });
    expect(changed.body.external_ids).toEqual({ isbn13: '9780441478125', openlibrary: 'OL123W', goodreads: '555' });
    const cleared = await request(h.app).patch(`/api/v1/books/${book.body.id}`).set(asUser(user)).send({ isbn: null });
    expect(cleared.body.external_ids).toEqual({ openlibrary: 'OL123W', goodreads: '555' });
    const readOnly = await create({ title: 'Sets Isbn13', external_ids: { isbn13: '9780441478125' } });
    expect(readOnly.status).toBe(400);
  });

  it('refuses a second book with the same ISBN (as ISBN-10 or -13) with 409 and existing_id', async () => {
    const first = await create({ title: 'Isbn Owner', isbn: '080442957X' });
    const second = await create({ title: 'Isbn Copy', isbn: '978-0-8044-2957-3' });
    expect(second.status).toBe(409);
    expect(second.body.existing_id).toBe(first.body.id);
  });

  it('migrates entries written before external ids existed at start-up (lookup finds them)', async () => {
    const entries = h.module.connection.db!.collection(COLLECTIONS.entries);
    const old = await create({ title: 'Written Before', isbn: '9791090636071' });
    await entries.updateOne({ title: 'Written Before' }, { $unset: { external_ids: '', external_keys: '' } });
    expect((await request(h.app).get('/api/v1/books?external_id=isbn13:9791090636071')).body.total).toBe(0);
    const result = await externalIdsMigration.run(h.module.migrationContext);
    expect(result['migrated']).toBeGreaterThanOrEqual(1);
    expect((await request(h.app).get('/api/v1/books?external_id=isbn13:9791090636071')).body.total).toBe(1);
    expect((await request(h.app).get(`/api/v1/books/${old.body.id}`)).body.external_ids).toEqual({ isbn13: '9791090636071' });
    expect((await externalIdsMigration.run(h.module.migrationContext))['migrated']).toBe(0);
  });
});
