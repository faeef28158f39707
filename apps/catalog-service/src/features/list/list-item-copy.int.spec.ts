import { mongo } from 'mongoose';
import request from 'supertest';
import { startCatalogHarness, type CatalogHarness } from '../../../test/catalog-harness';
import { asModerator, asUser, newUserId } from '../../../test/identity-headers';
import { titleKey } from '@mt/domain';
import { startProviderReplay, type ProviderReplay } from '@mt/testing';
import { COLLECTIONS } from '../../data/database';

/** Trials of the race below: a few in `npm test`, many with RACE_TRIALS (npm run race). */
const RACE_TRIALS = Number(process.env['RACE_TRIALS'] ?? 3);

type Item = { id: string; title: string; year: number | null; poster: string | null };

describe("list entries' copy of their catalog entry's title, year and poster", () => {
  let h: CatalogHarness;
  // TMDB enabled (the replay server's variables) so that a poster on its image host has this API's path.
  let replay: ProviderReplay;
  const creator = newUserId();
  beforeAll(async () => {
    replay = await startProviderReplay();
    h = await startCatalogHarness({ category: 'movies', providers: { env: replay.env } });
  });
  afterAll(async () => {
    await h.close();
    await replay.close();
  });

  const posterUrl = (file: string) => `${replay.env['TMDB_IMAGE_URL']}/w500/${file}`;
  const create = async (title: string, year: number | null, poster_url: string | null = null) => {
    const res = await request(h.app).post('/api/v1/movies').set(asUser(creator)).send({ title, year, poster_url });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const edit = (id: string, body: object) => request(h.app).patch(`/api/v1/movies/${id}`).set(asUser(creator)).send(body);
  const add = (user: string, id: string) => request(h.app).post('/api/v1/movies/list').set(asUser(user)).send({ item_id: id });
  /** The item as the list page, the single entry and the change feed show it. */
  const shownItems = async (user: string, id: string): Promise<Item[]> => {
    const [page, single, changes] = await Promise.all([
      request(h.app).get('/api/v1/movies/list').set(asUser(user)),
      request(h.app).get(`/api/v1/movies/list/${id}`).set(asUser(user)),
      request(h.app).get('/api/v1/movies/list/changes').set(asUser(user)),
    ]);
    expect([page.status, single.status, changes.status]).toEqual([200, 200, 200]);
    const fromPage = page.body.data.find((entry: { item_id: string }) => entry.item_id === id)?.item;
    const fromFeed = changes.body.changes.find((change: { item_id: string }) => change.item_id === id)?.entry?.item;
    return [fromPage, single.body.item, fromFeed];
  };
  const entries = () => h.module.connection.db!.collection(COLLECTIONS.listEntries);
  const stored = (user: string, id: string) => entries().findOne({ user_id: user, item_id: new mongo.ObjectId(id) });

  it('shows the title and year of the catalog entry after an edit of either, in pages, single entries and the change feed', async () => {
    const user = newUserId();
    const id = await create('Copy Original', 2001);
    expect((await add(user, id)).status).toBe(201);
    expect(await stored(user, id)).toMatchObject({ item_title: 'Copy Original', item_year: 2001, item_title_key: 'copy original' });

    expect((await edit(id, { year: 2002 })).status).toBe(200);
    expect(await shownItems(user, id)).toEqual(Array(3).fill({ id, title: 'Copy Original', year: 2002, poster: null }));
    expect((await edit(id, { title: 'Copy Renamed', year: null })).status).toBe(200);
    expect(await shownItems(user, id)).toEqual(Array(3).fill({ id, title: 'Copy Renamed', year: null, poster: null }));
    expect(await stored(user, id)).toMatchObject({ item_title: 'Copy Renamed', item_year: null, item_title_key: 'copy renamed' });
  });

  it("gives entries a merge moved the survivor's title, year and poster", async () => {
    const user = newUserId();
    const [from, into] = [await create('Copy Merged Away', 1990, posterUrl('away.jpg')), await create('Copy Survivor', 1991, posterUrl('survivor.jpg'))];
    expect((await add(user, from)).status).toBe(201);
    expect((await request(h.app).post(`/api/v1/movies/${from}/merge`).set(asModerator(newUserId())).send({ into })).status).toBe(200);
    expect(await shownItems(user, into)).toEqual(Array(3).fill({ id: into, title: 'Copy Survivor', year: 1991, poster: '/api/v1/images/tmdb/w500/survivor.jpg' }));
  });

  it(`leaves every entry with the entry's final title and year while edits and list additions race (${RACE_TRIALS} trials)`, async () => {
    const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    for (let trial = 0; trial < RACE_TRIALS; trial++) {
      const id = await create(`Copy Raced ${trial}`, 2000);
      const listed = [newUserId(), newUserId()];
      for (const user of listed) expect((await add(user, id)).status).toBe(201);
      const adders = [newUserId(), newUserId(), newUserId(), newUserId()];
      const [edits, adds] = await Promise.all([
        Promise.all([1, 2, 3].map((n) => delay(Math.random() * 30).then(() => edit(id, n === 2 ? { year: 2000 + n } : { title: `Copy Raced ${trial} v${n}`, year: 2000 + n })))),
        Promise.all(adders.map((user) => delay(Math.random() * 40).then(() => add(user, id)))),
      ]);
      for (const res of edits) expect(res.status).toBe(200);
      for (const res of adds) expect(res.status).toBe(201);
      const final = await request(h.app).get(`/api/v1/movies/${id}`);
      const copies = await entries().find({ item_id: new mongo.ObjectId(id) }).toArray();
      expect(copies).toHaveLength(listed.length + adders.length);
      for (const copy of copies) expect(copy).toMatchObject({ item_title: final.body.title, item_year: final.body.year, item_title_key: titleKey(final.body.title) });
    }
  }, 60_000 + RACE_TRIALS * 20_000);

  /** A second instance on the same database: its start-up runs the migrations. */
  const restart = async (): Promise<string> => {
    const restarted = await startCatalogHarness({ category: 'movies', dbName: h.dbName });
    const lines = restarted.logLines().join('\n');
    await restarted.close({ keepDatabase: true });
    return lines;
  };

  it('copies the catalog entry into entries stored before entries kept a copy at the next start, and shows it from there', async () => {
    const user = newUserId();
    const [kept, gone] = [await create('Copy Legacy', 1980), await create('Copy Legacy Gone', 1981)];
    for (const id of [kept, gone]) expect((await add(user, id)).status).toBe(201);
    expect((await edit(kept, { title: 'Copy Legacy Renamed' })).status).toBe(200);
    // As the version before copies left them; and a catalog entry removed by hand (the API removes its list entries with it).
    await entries().updateMany({ user_id: user }, { $unset: { item_title: '', item_year: '', item_pages: '', item_poster_url: '' } });
    await h.module.connection.db!.collection(COLLECTIONS.entries).deleteOne({ _id: new mongo.ObjectId(gone) });

    expect(await restart()).toContain('"entries":1,"msg":"list entries: their catalog entry\'s title, year, pages and poster copied into them"');
    expect(await stored(user, kept)).toMatchObject({ item_title: 'Copy Legacy Renamed', item_year: 1980 });
    expect(await stored(user, gone)).not.toHaveProperty('item_title');
    expect(await shownItems(user, kept)).toEqual(Array(3).fill({ id: kept, title: 'Copy Legacy Renamed', year: 1980, poster: null }));
    expect(await shownItems(user, gone)).toEqual(Array(3).fill({ id: gone, title: '', year: null, poster: null }));
  });

  it('shows the poster in pages, single entries and the change feed, and follows an edit or removal of poster_url', async () => {
    const user = newUserId();
    const id = await create('Copy Pictured', 1999, posterUrl('first.jpg'));
    expect((await add(user, id)).status).toBe(201);
    expect(await shownItems(user, id)).toEqual(Array(3).fill({ id, title: 'Copy Pictured', year: 1999, poster: '/api/v1/images/tmdb/w500/first.jpg' }));
    expect((await edit(id, { poster_url: posterUrl('second.jpg') })).status).toBe(200);
    expect(await shownItems(user, id)).toEqual(Array(3).fill({ id, title: 'Copy Pictured', year: 1999, poster: '/api/v1/images/tmdb/w500/second.jpg' }));
    expect(await stored(user, id)).toMatchObject({ item_poster_url: posterUrl('second.jpg') });
    // A poster elsewhere than an enabled provider's image host is kept but never shown as this API's path.
    expect((await edit(id, { poster_url: 'https://example.com/poster.jpg' })).status).toBe(200);
    expect(await shownItems(user, id)).toEqual(Array(3).fill({ id, title: 'Copy Pictured', year: 1999, poster: null }));
    expect((await edit(id, { poster_url: null })).status).toBe(200);
    expect(await stored(user, id)).toMatchObject({ item_poster_url: null });
  });

  it("gives the diary's plays their item's poster", async () => {
    const user = newUserId();
    const id = await create('Copy Diary', 1977, posterUrl('diary.jpg'));
    expect((await add(user, id)).status).toBe(201);
    expect((await request(h.app).post(`/api/v1/movies/list/${id}/plays`).set(asUser(user)).send({ watched_at: '2024-02-03' })).status).toBe(201);
    const diary = await request(h.app).get('/api/v1/movies/list/plays').set(asUser(user));
    expect(diary.status).toBe(200);
    expect(diary.body.data.map((play: { item: Item }) => play.item)).toEqual([{ id, title: 'Copy Diary', year: 1977, poster: '/api/v1/images/tmdb/w500/diary.jpg' }]);
  });

  it('copies the poster into entries whose copy predates it at the next start, and shows it from there', async () => {
    const user = newUserId();
    const id = await create('Copy Before Posters', 1985, posterUrl('old.jpg'));
    expect((await add(user, id)).status).toBe(201);
    await entries().updateOne({ user_id: user, item_id: new mongo.ObjectId(id) }, { $unset: { item_poster_url: '' } });
    await restart();
    expect(await stored(user, id)).toMatchObject({ item_title: 'Copy Before Posters', item_poster_url: posterUrl('old.jpg') });
    expect(await shownItems(user, id)).toEqual(Array(3).fill({ id, title: 'Copy Before Posters', year: 1985, poster: '/api/v1/images/tmdb/w500/old.jpg' }));
  });
});
