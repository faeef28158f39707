import { mongo } from 'mongoose';
import { startCatalogHarness, type CatalogHarness } from '../../../test/catalog-harness';
import { newUserId } from '../../../test/identity-headers';
import { importAndWait } from '../../../test/imports';
import { COLLECTIONS } from '../../data/database';
import { MAX_KEPT_ROW_BYTES, MAX_ROW_MESSAGE_BYTES } from '../../domain/list-import';

/** Our own CSV with `n` rows whose status is not a list status: each row fails with a message. */
const failingCsv = (n: number) => ['title,status', ...Array.from({ length: n }, (_, i) => `Film ${i},not-a-status-${'x'.repeat(i % 50)}`)].join('\r\n');

describe('what a finished import keeps of its row errors (movies)', () => {
  let h: CatalogHarness;
  beforeAll(async () => {
    h = await startCatalogHarness({ category: 'movies', imports: {} });
  }, 60_000);
  afterAll(() => h.close());

  it('bounds the stored errors in bytes across batches, while counting every failed row', async () => {
    const user = newUserId();
    const job = await importAndWait(h.app, user, { category: 'movies', source: 'csv', body: failingCsv(2000) });
    expect(job.status).toBe('completed');
    expect(job.counts['failed']).toBe(2000);
    expect(job.errors.length).toBeGreaterThan(100);
    expect(job.errors[0]).toEqual({ row: 2, message: expect.stringContaining('status must be one of') });
    for (const error of job.errors) expect(Buffer.byteLength(error.message)).toBeLessThanOrEqual(MAX_ROW_MESSAGE_BYTES);
    // The rows kept are the first ones, in order, with no gap between batches.
    expect(job.errors.map((error) => error.row)).toEqual(job.errors.map((_, index) => index + 2));
    const stored = await h.module.connection.db!.collection(COLLECTIONS.importJobs).findOne({ _id: new mongo.ObjectId(job.id) });
    expect(mongo.BSON.calculateObjectSize({ errors: stored!['errors'] })).toBeLessThanOrEqual(MAX_KEPT_ROW_BYTES + 16);
  }, 120_000);
});
