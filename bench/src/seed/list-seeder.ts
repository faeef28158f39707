import type { EntryDocument, ListStatus } from '../service-code';
import { withStatusDates } from '../service-code';
import { Random } from '../data/random';
import type { CatalogSeeder } from './catalog-seeder';

const STATUSES: ReadonlyArray<readonly [ListStatus, number]> = [
  ['completed', 45],
  ['plan_to_watch', 30],
  ['watching', 10],
  ['on_hold', 8],
  ['dropped', 7],
];

/** Rows per import batch: one transaction each, like an import job's batch. */
const BATCH = 500;

/**
 * The user's list, written by the catalog service's own import path (`ListService.importEntries`: the same
 * documents, change-feed records, history and counters as the API writes, 500 rows per transaction) without
 * the HTTP hops: 50 000 adds one by one would mostly measure the seeding, not the list.
 */
export async function seedList(
  seeder: CatalogSeeder,
  userId: string,
  items: ReadonlyArray<Pick<EntryDocument, '_id'>>,
  seed = 7,
): Promise<number> {
  const random = new Random(seed);
  const today = new Date().toISOString().slice(0, 10);
  const rows = items.map((item) => {
    const status = random.weighted(STATUSES);
    return {
      itemId: item._id,
      fields: {
        status,
        score: random.chance(0.6) ? random.int(1, 10) : null,
        progress: null,
        notes: null,
        ...withStatusDates({ started_at: null, finished_at: null }, status, today),
      },
    };
  });
  const started = performance.now();
  for (let i = 0; i < rows.length; i += BATCH) {
    const batch = rows.slice(i, i + BATCH);
    await seeder.module.listImports.importEntries(userId, 'skip_existing', batch, async () => undefined, async () => undefined);
  }
  return (performance.now() - started) / 1000;
}
