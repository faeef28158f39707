import { csvHeader, parseImport, type Category, type ImportRow } from '@mt/importers';
import { Readable } from 'node:stream';
import request from 'supertest';
import { startCatalogHarness, type CatalogHarness } from '../../../test/catalog-harness';
import { asUser, newUserId } from '../../../test/identity-headers';
import { LIST_FIXTURE as LIST, CATALOG_FIXTURE as CATALOG } from '../../../test/list-fixtures';
import { seedEntries } from '../../../test/seed';

const ENTRY_KEYS = ['item', 'status', 'score', 'progress', 'notes', 'started_at', 'finished_at', 'created_at', 'updated_at', 'plays'];

async function rowsOf(body: string, category: Category, source: 'media-tracker' | 'csv'): Promise<ImportRow[]> {
  const rows: ImportRow[] = [];
  for await (const row of parseImport(Readable.from([Buffer.from(body)]), { source, category })) rows.push(row);
  return rows;
}

describe.each(['movies', 'tvshows', 'books'] as const)('list export (%s)', (category) => {
  let h: CatalogHarness;
  const user = newUserId();
  let itemIds: string[];
  const base = `/api/v1/${category}`;

  beforeAll(async () => {
    h = await startCatalogHarness({ category });
    itemIds = (await seedEntries(h.module, CATALOG[category])).map((doc) => doc._id.toHexString());
    for (const [index, fields] of LIST.entries()) {
      const added = await request(h.app).post(`${base}/list`).set(asUser(user)).send({ item_id: itemIds[index], ...fields });
      expect(added.status).toBe(201);
    }
  }, 60_000);
  afterAll(() => h.close());

  const exportOf = (format: 'json' | 'csv', who = user) => request(h.app).get(`${base}/list/export?format=${format}`).set(asUser(who)).buffer(true).parse((res, done) => {
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => (text += chunk));
    res.on('end', () => done(null, text));
  });

  it('streams the JSON export as an attachment: format and category first, every entry with its full catalog entry', async () => {
    const res = await exportOf('json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(new RegExp(`^attachment; filename="${category}-list-\\d{4}-\\d{2}-\\d{2}\\.json"$`));
    const text = res.body as string;
    expect(text.startsWith(`{"format":"media-tracker/list@1","category":"${category}","exported_at":"`)).toBe(true);
    const file = JSON.parse(text);
    expect(Object.keys(file)).toEqual(['format', 'category', 'exported_at', 'entries']);
    expect(file.entries).toHaveLength(LIST.length);
    for (const [index, entry] of (file.entries as Array<Record<string, unknown>>).entries()) {
      expect(Object.keys(entry)).toEqual(ENTRY_KEYS);
      const item = await request(h.app).get(`${base}/${itemIds[index]}`);
      expect(entry['item']).toEqual(item.body);
      const listed = await request(h.app).get(`${base}/list/${itemIds[index]}`).set(asUser(user));
      const listFields = Object.fromEntries(Object.entries(listed.body as Record<string, unknown>).filter(([key]) => !['item_id', 'item', 'repeat_count', 'cycle', 'progress_percent'].includes(key)));
      expect({ ...entry, item: undefined, plays: undefined }).toEqual({ ...listFields, item: undefined });
      expect(entry['plays']).toEqual([]);
    }
  });

  it('streams the CSV export: the documented header, RFC 4180 quoting, formulas guarded, read back to the same entries', async () => {
    const res = await exportOf('csv');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(new RegExp(`^attachment; filename="${category}-list-\\d{4}-\\d{2}-\\d{2}\\.csv"$`));
    const text = res.body as string;
    expect(text.split('\r\n')[0]).toBe(csvHeader(category).join(','));
    expect(text).toContain(`"${CATALOG[category][1]!.title.replace(/"/g, '""')}"`);
    expect(text).toContain(`'=cmd|calc`);
    const fromCsv = await rowsOf(text, category, 'csv');
    const fromJson = await rowsOf((await exportOf('json')).body as string, category, 'media-tracker');
    expect(fromCsv).toHaveLength(LIST.length);
    expect(fromCsv.every((row) => row.ok)).toBe(true);
    // Both formats carry the same list: the CSV flattening loses nothing the import reads.
    const strip = (rows: ImportRow[]) => rows.map((row) => (row.ok ? { item: row.item, entry: row.entry } : row));
    expect(strip(fromCsv)).toEqual(strip(fromJson));
    expect(fromCsv.map((row) => row.ok && row.entry)).toEqual(LIST.map((fields) => ({ ...fields })));
  });

  it("exports only the caller's own list: another user gets an empty file", async () => {
    const json = JSON.parse((await exportOf('json', newUserId())).body as string);
    expect(json.entries).toEqual([]);
    expect((await exportOf('csv', newUserId())).body).toBe(`${csvHeader(category).join(',')}\r\n`);
  });

  it('refuses an unknown format with 400 and a token without list:read with 403', async () => {
    const bad = await request(h.app).get(`${base}/list/export?format=xml`).set(asUser(user));
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('validation_failed');
    const noScope = await request(h.app).get(`${base}/list/export`).set(asUser(user, ['list:write']));
    expect(noScope.status).toBe(403);
  });
});

describe('list export of a list larger than one read batch (movies)', () => {
  let h: CatalogHarness;
  beforeAll(async () => {
    h = await startCatalogHarness({ category: 'movies' });
  }, 60_000);
  afterAll(() => h.close());

  it('exports every entry once, oldest first, across the cursor and join batches', async () => {
    const user = newUserId();
    const docs = await seedEntries(h.module, Array.from({ length: 1234 }, (_, i) => ({ title: `Batch Export ${i}`, year: 2000 })));
    const owners = h.module.connection.db!.collection('list_owners');
    await owners.insertOne({ _id: user as never, seq: 0, deleted_at: null });
    const start = Date.UTC(2024, 0, 1);
    await h.module.connection.db!.collection('list_entries').insertMany(
      docs.map((doc, i) => ({
        user_id: user,
        item_id: doc._id,
        item_title_key: doc.title_key,
        status: 'completed',
        score: (i % 10) + 1,
        score_missing: 0,
        progress: null,
        notes: null,
        started_at: null,
        finished_at: null,
        created_at: new Date(start + i * 1000),
        updated_at: new Date(start + i * 1000),
        rev: 0,
      })),
    );
    const res = await request(h.app).get('/api/v1/movies/list/export').set(asUser(user));
    expect(res.status).toBe(200);
    const titles = (res.body.entries as Array<{ item: { title: string } }>).map((entry) => entry.item.title);
    expect(titles).toEqual(docs.map((doc) => doc.title));
  }, 120_000);

  it('leaves out an entry whose catalog entry is gone (removed while the list is read), in both formats', async () => {
    const user = newUserId();
    const docs = await seedEntries(h.module, Array.from({ length: 6 }, (_, i) => ({ title: `Gone Export ${i}`, year: 2001 })));
    for (const doc of docs) {
      const added = await request(h.app).post('/api/v1/movies/list').set(asUser(user)).send({ item_id: doc._id.toHexString(), status: 'plan_to_watch' });
      expect(added.status).toBe(201);
    }
    // Deleted behind the list's back: what a moderator's removal racing the export leaves the join to find.
    await h.module.connection.db!.collection('entries').deleteMany({ _id: { $in: [docs[1]!._id, docs[4]!._id] } });
    const kept = [docs[0]!, docs[2]!, docs[3]!, docs[5]!].map((doc) => doc.title);

    const json = await request(h.app).get('/api/v1/movies/list/export?format=json').set(asUser(user));
    expect(json.status).toBe(200);
    expect((json.body.entries as Array<{ item: { title: string } }>).map((entry) => entry.item.title)).toEqual(kept);
    const csv = await request(h.app).get('/api/v1/movies/list/export?format=csv').set(asUser(user)).buffer(true).parse((res, done) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => done(null, text));
    });
    expect(csv.status).toBe(200);
    const rows = await rowsOf(csv.body as string, 'movies', 'csv');
    expect(rows.map((row) => row.ok && row.item.title)).toEqual(kept);
  }, 60_000);
});
