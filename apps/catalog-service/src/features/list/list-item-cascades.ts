import type { Id } from '../../domain/ids';
import { tombstoneExpiry } from '../../domain/feed-retention';
import { statsDelta } from '../../domain/list-stats';
import type { Session } from '../../domain/ports/atomic.port';
import type { ListChangesStore } from '../../domain/ports/list-changes-store.port';
import type { ListOwnersStore } from '../../domain/ports/list-owners-store.port';
import type { ItemGuardsStore } from '../../domain/ports/item-guards.port';
import type { ListStore } from '../../domain/ports/list-store.port';
import type { PlaysStore } from '../../domain/ports/plays-store.port';
import type { ListedItem, ListEntryDocument } from '../../domain/records/list-entry.record';

export interface ListItemCascadesDeps {
  lists: ListStore;
  guards: ItemGuardsStore;
  owners: ListOwnersStore;
  changes: ListChangesStore;
  plays: Pick<PlaysStore, 'deleteOfItem' | 'moveItem'>;
  now?: () => Date;
}

/**
 * What a moderation of a catalog entry does to every list that has it (a removal, a merge), inside the
 * moderation's transaction: each change is numbered in its owner's feed like the owner's own writes.
 */
export class ListItemCascades {
  private readonly now: () => Date;

  constructor(private readonly deps: ListItemCascadesDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  /** For a moderation whose transaction found the guards of its entry missing (withItemGuards): creates them. */
  ensureGuard(itemId: Id): Promise<void> {
    return this.deps.guards.ensureGuards([itemId], 'all');
  }

  /**
   * For the catalog's moderation, inside its transaction: removes `itemId` from every list that has it,
   * each removal a change in its owner's feed (numbered by that owner's sequence, so it is ordered with the
   * owner's own writes). Returns how many entries were removed. A fixed number of statements whatever the
   * number of lists (bulk writes): a moderation of a popular entry fits in one transaction. The entry's
   * guards are written (withItemGuards), so an import batch adding it meanwhile runs again and finds it gone.
   */
  async removeEntriesOfItem(itemId: Id, session: Session): Promise<number> {
    await this.deps.guards.touchGuards([itemId], 'all', session);
    const at = this.now();
    const entries = await this.deps.lists.entriesOfItem(itemId, session);
    if (!entries.length) return 0;
    const seqs = await this.deps.owners.recordForeignWrites(entries.map((entry) => entry.user_id), session);
    const removed = await this.deps.lists.deleteByIds(entries.map((entry) => entry._id), session);
    await this.deps.owners.addToStatsOfMany(entries.map((entry) => ({ userId: entry.user_id, delta: statsDelta(entry, null) })), session);
    await this.deps.changes.recordDeletesOfMany(entries.map((entry) => ({ userId: entry.user_id, seq: seqs.get(entry.user_id) ?? 1, itemId })), at, tombstoneExpiry(at), session);
    await this.deps.plays.deleteOfItem(itemId, session);
    return removed;
  }

  /**
   * For the catalog's merge, inside its transaction: every list entry of `from` now refers to `into`
   * (keeping its status, score, dates, notes and history); a user who has both keeps the one updated last
   * (`into`'s on a tie) and loses the other with its history. Each list's feed records the
   * removal of `from` and, when the kept entry is the moved one, the entry of `into` (at the owner's `seq`).
 * The plays of `from` move to `into` (each a `play` again in its owner's feed), the episodes they name replaced
 * by the survivor's where the merge dropped them (`episodes`).
   * Bulk statements and the guard of `from`, as removeEntriesOfItem.
   */
  async moveEntries(from: Id, into: ListedItem, session: Session, episodes: ReadonlyMap<string, Id> = new Map()): Promise<{ moved: number; removed: number }> {
    await this.deps.guards.touchGuards([from], 'all', session);
    const at = this.now();
    const fromEntries = await this.deps.lists.entriesOfItem(from, session);
    if (!fromEntries.length) return { moved: 0, removed: 0 };
    const users = fromEntries.map((entry) => entry.user_id);
    const seqs = await this.deps.owners.recordForeignWrites(users, session);
    const intoOf = new Map((await this.deps.lists.entriesOfItem(into.id, session, users)).map((entry) => [entry.user_id, entry]));
    const losers: ListEntryDocument[] = [];
    const movers: string[] = [];
    for (const entry of fromEntries) {
      const other = intoOf.get(entry.user_id);
      if (other && !(entry.updated_at > other.updated_at)) {
        losers.push(entry);
        continue;
      }
      if (other) losers.push(other);
      movers.push(entry.user_id);
    }
    const removed = await this.deps.lists.deleteByIds(losers.map((entry) => entry._id), session);
    await this.deps.owners.addToStatsOfMany(losers.map((entry) => ({ userId: entry.user_id, delta: statsDelta(entry, null) })), session);
    const seq = (userId: string) => seqs.get(userId) ?? 1;
    const moved = await this.deps.lists.moveItem(from, into, at, new Map(movers.map((userId) => [userId, seq(userId)])), session);
    // Plays are kept, also those of an entry that lost to the survivor's: all of them now name `into`.
    await this.deps.plays.moveItem(from, into.id, episodes, new Map(users.map((userId) => [userId, seq(userId)])), session);
    await this.deps.changes.recordDeletesOfMany(users.map((userId) => ({ userId, seq: seq(userId), itemId: from })), at, tombstoneExpiry(at), session);
    return { moved, removed };
  }
}
