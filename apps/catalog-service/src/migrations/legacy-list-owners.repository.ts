import { isDuplicateKeyError } from '@mt/stores';
import type { Session } from '../data/atomic';
import { COLLECTIONS, type CatalogDatabase } from '../data/database';
import type { ListOwnerDocument, NestedCounters } from '../data/list-owners.repository';
import type { StatsCounters } from '../domain/list-stats';

/** An owner document as the version before the statistics counters left it. */
type LegacyListOwner = Omit<ListOwnerDocument, 'stats'> & { stats?: NestedCounters };

const WITHOUT_COUNTERS = { stats: { $exists: false } } as const;

/** `{ 'status.watching': 2 }` → `{ status: { watching: 2 } }`: the shape the live writes `$inc`. */
function nested(counters: StatsCounters): NestedCounters {
  const root: NestedCounters = {};
  for (const [key, value] of Object.entries(counters)) {
    const path = key.split('.');
    const leaf = path.pop() ?? key;
    let node = root;
    for (const part of path) node = (node[part] ??= {}) as NestedCounters;
    node[leaf] = value;
  }
  return root;
}

/** The reads and writes of migrations/006-list-counters.ts to `list_owners`: owner documents without counters. */
export class LegacyListOwnersRepository {
  constructor(private readonly db: CatalogDatabase) {}

  private get owners() {
    return this.db.collection<LegacyListOwner>(COLLECTIONS.listOwners);
  }

  /** Of these users, those without an owner document. */
  async withoutDocument(userIds: readonly string[]): Promise<string[]> {
    const found = new Set((await this.owners.find({ _id: { $in: [...userIds] } }, { projection: { _id: 1 } }).toArray()).map((row) => row._id));
    return userIds.filter((userId) => !found.has(userId));
  }

  /**
   * An owner document for a list from before them, without counters (the recount gives them), its sequence at
   * `seq`: where the list's feed positions got to, so later writes number after them. Resolves false when one
   * exists by now (another instance made it).
   */
  async createWithoutCounters(userId: string, seq: number): Promise<boolean> {
    // An insert rather than an upsert: of racing creators exactly one succeeds and the others meet E11000, where
    // racing upserts may each report the document as theirs on some servers.
    try {
      await this.owners.insertOne({ _id: userId, seq, deleted_at: null });
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }

  /** Up to `limit` users after `after`, in id order, whose list (not deleted) has no counters. */
  async withoutCounters(after: string | null, limit: number): Promise<string[]> {
    const filter = after === null ? { ...WITHOUT_COUNTERS, deleted_at: null } : { ...WITHOUT_COUNTERS, deleted_at: null, _id: { $gt: after } };
    const rows = await this.owners.find(filter, { projection: { _id: 1 } }).sort({ _id: 1 }).limit(limit).toArray();
    return rows.map((row) => row._id);
  }

  /**
   * Inside the recount's transaction, first: takes the list's next sequence number, as every list write does,
   * so a write of the list conflicts with the recount instead of slipping between its count and its result.
   * False when the list has counters by now (another instance counted it) or was deleted meanwhile.
   */
  async claimForRecount(userId: string, session: Session): Promise<boolean> {
    const claimed = await this.owners.findOneAndUpdate({ _id: userId, deleted_at: null, ...WITHOUT_COUNTERS }, { $inc: { seq: 1 } }, { session, projection: { _id: 1 } });
    return claimed !== null;
  }

  /** Inside the transaction that claimed the list: its counters, from a recount. */
  async setCounters(userId: string, counters: StatsCounters, session: Session): Promise<void> {
    await this.owners.updateOne({ _id: userId }, { $set: { stats: nested(counters) } }, { session });
  }

  /**
   * Deleted accounts' documents without counters get empty ones: their entries went with the deletion, and no
   * write of theirs can follow it. Returns how many.
   */
  async giveDeletedEmptyCounters(): Promise<number> {
    const result = await this.owners.updateMany({ ...WITHOUT_COUNTERS, deleted_at: { $ne: null } }, { $set: { stats: {} } });
    return result.modifiedCount;
  }
}
