import request from 'supertest';
import { startCatalogHarness, type CatalogHarness } from '../../../test/catalog-harness';
import { asUser, newUserId } from '../../../test/identity-headers';
import { importAndWait } from '../../../test/imports';
import { CATALOG_FIXTURE, LIST_FIXTURE } from '../../../test/list-fixtures';
import { seedEntries } from '../../../test/seed';

/** The list as the export shows it, without the entries' own timestamps (a new account's entries are new). */
const comparable = (file: { entries: Array<Record<string, unknown>> }) => file.entries.map(({ created_at: _c, updated_at: _u, ...entry }) => entry);

describe.each(['movies', 'tvshows', 'books'] as const)('export → import round trip (%s)', (category) => {
  let h: CatalogHarness;
  const owner = newUserId();
  let exported: { json: string; csv: string };
  const base = `/api/v1/${category}`;
  const exportOf = async (user: string, format: 'json' | 'csv') => {
    const res = await request(h.app).get(`${base}/list/export?format=${format}`).set(asUser(user)).buffer(true).parse((r, done) => {
      let text = '';
      r.setEncoding('utf8');
      r.on('data', (chunk: string) => (text += chunk));
      r.on('end', () => done(null, text));
    });
    expect(res.status).toBe(200);
    return res.body as string;
  };

  beforeAll(async () => {
    h = await startCatalogHarness({ category, imports: {} });
    const items = await seedEntries(h.module, CATALOG_FIXTURE[category]);
    for (const [index, fields] of LIST_FIXTURE.entries()) {
      const added = await request(h.app).post(`${base}/list`).set(asUser(owner)).send({ item_id: items[index]!._id.toHexString(), ...fields });
      expect(added.status).toBe(201);
    }
    exported = { json: await exportOf(owner, 'json'), csv: await exportOf(owner, 'csv') };
  }, 60_000);
  afterAll(() => h.close());

  it.each([
    ['json', 'media-tracker'],
    ['csv', 'csv'],
  ] as const)('reproduces the list in a fresh account from the %s export', async (format, source) => {
    const fresh = newUserId();
    const job = await importAndWait(h.app, fresh, { category, source, body: exported[format] });
    expect(job.counts).toEqual({ rows: 3, matched: 3, catalog_created: 0, added: 3, updated: 0, unchanged: 0, skipped: 0, failed: 0 });
    expect(comparable(JSON.parse(await exportOf(fresh, 'json')))).toEqual(comparable(JSON.parse(exported.json)));
    const again = await importAndWait(h.app, fresh, { category, source, body: exported[format], mode: 'overwrite' });
    expect(again.counts).toMatchObject({ unchanged: 3, added: 0, updated: 0 });
  });
});
