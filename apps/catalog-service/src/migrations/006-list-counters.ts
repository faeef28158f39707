import { Semaphore } from '@mt/stores';
import type { Migration } from './migration';
import type { AtomicRunner } from '../data/atomic';
import { countersOf } from '../domain/list-stats';
import type { LegacyListChangesRepository } from './legacy-list-changes.repository';
import type { LegacyListEntriesRepository } from './legacy-list-entries.repository';
import type { LegacyListOwnersRepository } from './legacy-list-owners.repository';

/** Owners read per query (and users looked up per query); each list is then recounted in a transaction of its own (one list may be long). */
const BATCH = 200;
/** Lists recounted at once: start-up gets through many short transactions without crowding the server. */
const AT_ONCE = 4;

/**
 * Lists from before the owner documents (their entries and nothing else): each gets its document, without
 * counters, so the recount below counts it like the others. Its sequence starts where the list's feed positions
 * got to, so the list's later changes number after them. Costs a `distinct` of the list entries' users at each
 * start (an index walk on MongoDB) and one read of their owner documents.
 */
export async function createMissingOwners(
  owners: Pick<LegacyListOwnersRepository, 'withoutDocument' | 'createWithoutCounters'>,
  lists: Pick<LegacyListEntriesRepository, 'usersWithEntries' | 'highestSeqOfUser'>,
  changes: Pick<LegacyListChangesRepository, 'highestSeqOfUser'>,
): Promise<number> {
  const users = await lists.usersWithEntries();
  let created = 0;
  for (let start = 0; start < users.length; start += BATCH) {
    for (const userId of await owners.withoutDocument(users.slice(start, start + BATCH))) {
      const seq = Math.max(await lists.highestSeqOfUser(userId), await changes.highestSeqOfUser(userId));
      if (await owners.createWithoutCounters(userId, seq)) created++;
    }
  }
  return created;
}

/**
 * Start-up migration to lists that carry their statistics counters (`stats` on the `list_owners` document, which
 * every list write `$inc`s): each owner document from before them gets a recount of its list, in a transaction
 * that first takes the list's next sequence number, as a write does, so a write racing the recount runs
 * before or after it, never between its count and its result. A list another instance counted meanwhile is
 * passed over. Deleted accounts' documents get empty counters. The live code reads and `$inc`s the counters as
 * present: no instance of the previous version runs beside this one (the upgrade stops them first). Removable
 * after 1.0.0 (an upgrade from an older release passes through it).
 */
export async function countLegacyLists(owners: LegacyListOwnersRepository, lists: Pick<LegacyListEntriesRepository, 'statsFieldsOfUser'>, atomic: AtomicRunner): Promise<{ counted: number; deleted: number }> {
  const limit = new Semaphore(AT_ONCE);
  const recount = (userId: string) =>
    limit.use(() =>
      atomic.run(async (session) => {
        if (!(await owners.claimForRecount(userId, session))) return false;
        await owners.setCounters(userId, countersOf(await lists.statsFieldsOfUser(userId, session)), session);
        return true;
      }),
    );
  let counted = 0;
  let after: string | null = null;
  for (;;) {
    const userIds = await owners.withoutCounters(after, BATCH);
    counted += (await Promise.all(userIds.map(recount))).filter(Boolean).length;
    const last = userIds.at(-1);
    if (last === undefined || userIds.length < BATCH) break;
    after = last;
  }
  return { counted, deleted: await owners.giveDeletedEmptyCounters() };
}

export const listCountersMigration: Migration = {
  id: '006-list-counters',
  removableAfter: '1.0.0',
  done: 'list statistics: lists from before the counters (or the owner documents) counted into their owner documents',
  run: async ({ listOwners, listEntries, listChanges, atomic }) => ({
    created: await createMissingOwners(listOwners, listEntries, listChanges),
    ...(await countLegacyLists(listOwners, listEntries, atomic)),
  }),
};
