import type { mongo } from 'mongoose';
import type { ListStatus } from '../service-code';
import { mapLimit } from '../load/http-client';
import { Random } from '../data/random';
import type { CatalogSeeder } from './catalog-seeder';

const STATUSES: ReadonlyArray<readonly [ListStatus, number]> = [
  ['completed', 45],
  ['plan_to_watch', 30],
  ['watching', 10],
  ['on_hold', 8],
  ['dropped', 7],
];

/**
 * The user's list, written by the catalog service's own ListService.add (same document, same derived
 * title key, same date rules as POST /{category}/list), without the HTTP hops: 10 000 adds through the
 * API would mostly measure the seeding, not the list.
 */
export async function seedList(
  seeder: CatalogSeeder,
  userId: string,
  itemIds: readonly mongo.ObjectId[],
  seed = 7,
): Promise<number> {
  const random = new Random(seed);
  const inputs = itemIds.map((id) => ({
    item_id: id.toHexString(),
    status: random.weighted(STATUSES),
    score: random.chance(0.6) ? random.int(1, 10) : undefined,
  }));
  const started = performance.now();
  await mapLimit(inputs, 16, (input) => seeder.module.lists.add(userId, input));
  return (performance.now() - started) / 1000;
}
