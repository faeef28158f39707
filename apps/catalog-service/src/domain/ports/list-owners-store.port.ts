import type { Session } from './atomic.port';

/** The list's owner was deleted: the write must not happen. */
export class ListOwnerDeletedError extends Error {
  override name = 'ListOwnerDeletedError';
}

/** One document per list owner: the serialisation point of the list, its sequence and its counters (data/list-owners.repository.ts). */
export interface ListOwnersStore {
  ensure(userId: string): Promise<void>;
  /** ListOwnerDeletedError when the account was deleted. */
  recordWrite(userId: string, session: Session): Promise<number>;
  recordForeignWrite(userId: string, session: Session): Promise<number>;
  recordForeignWrites(userIds: readonly string[], session: Session): Promise<Map<string, number>>;
  addToStatsOfMany(deltas: ReadonlyArray<{ userId: string; delta: Record<string, number> }>, session: Session): Promise<void>;
  addToStats(userId: string, delta: Record<string, number>, session: Session): Promise<void>;
  /** The counters (with `keys`, only those); null when the owner has no document. */
  stats(userId: string, keys?: readonly string[]): Promise<Record<string, number> | null>;
  committedSeq(userId: string): Promise<number>;
  markDeleted(userId: string, deletedAt: Date, session: Session): Promise<void>;
}
