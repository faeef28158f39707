import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { startCatalogHarness, type CatalogHarness } from '../../../test/catalog-harness';
import { bundleCatalogProcess, startCatalogProcess } from '../../../test/catalog-process';
import { asUser, newUserId } from '../../../test/identity-headers';
import { seedEntries } from '../../../test/seed';

const TRIALS = Number(process.env['CRASH_TRIALS'] ?? 3);

describe('change feed across a crash (movies)', () => {
  let h: CatalogHarness;
  let dir: string;
  let script: string;
  let items: string[];
  beforeAll(async () => {
    h = await startCatalogHarness({ category: 'movies' });
    items = (await seedEntries(h.module, Array.from({ length: TRIALS * 2 }, (_, i) => ({ title: `Crash Item ${i}` })))).map((doc) => doc._id.toHexString());
    dir = mkdtempSync(path.join(tmpdir(), 'list-writer-'));
    script = await bundleCatalogProcess(dir);
  }, 120_000);
  afterAll(async () => {
    await h.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('has every write acknowledged by a process that was SIGKILLed right after answering', async () => {
    for (let trial = 0; trial < TRIALS; trial++) {
      const user = newUserId();
      const { child, url } = await startCatalogProcess(script, h.dbName);
      const exited = new Promise((resolve) => child.once('exit', resolve));
      try {
        const added = await request(url).post('/api/v1/movies/list').set(asUser(user)).send({ item_id: items[trial * 2], status: 'watching' });
        expect(added.status).toBe(201);
        const changed = await request(url).patch(`/api/v1/movies/list/${items[trial * 2]}`).set(asUser(user)).send({ score: 7 });
        child.kill('SIGKILL');
        expect(changed.status).toBe(200);
      } finally {
        child.kill('SIGKILL');
        await exited;
      }
      const feed = await request(h.app).get('/api/v1/movies/list/changes').set(asUser(user));
      expect(feed.status).toBe(200);
      expect(feed.body.changes).toEqual([
        expect.objectContaining({ type: 'upsert', item_id: items[trial * 2], entry: expect.objectContaining({ status: 'watching', score: 7 }) }),
      ]);
    }
  }, 300_000);
});
