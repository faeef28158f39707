import type { mongo } from 'mongoose';

/** A blocking sort step in a query plan: mongod's `SORT` stage, or PostgreSQL's `Sort` node (DocumentDB). */
const SORT_STEP = /"stage":"SORT"|Node Type[\\"]*:\s*[\\"]*Sort[\\"]/;

/**
 * Whether the connected server sorts every match of an index-ordered query instead of walking the index
 * in order. MongoDB answers `find().sort({_id: 1}).limit(1)` from the `_id` index and stops after one
 * document; MongoDB-compatible engines on PostgreSQL (DocumentDB, the test sandbox) plan a sort over every
 * match, so a page costs as much as the whole collection there. Asked once at start-up, of a collection
 * the caller uses; a server whose explain fails is taken to walk indexes (plain queries are always correct).
 */
export async function sortsInsteadOfWalkingIndexes(collection: mongo.Collection): Promise<boolean> {
  try {
    const plan = await collection.find({}).sort({ _id: 1 }).limit(1).explain();
    return planHasSortStep(plan);
  } catch {
    return false;
  }
}

/** Whether an explain output contains a blocking sort step. */
export function planHasSortStep(plan: unknown): boolean {
  return SORT_STEP.test(JSON.stringify(plan));
}
