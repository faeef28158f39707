import type { Session } from './atomic.port';
import type { Id } from '../ids';
import type { HistoryEvent } from '../list-history';

/** Histories kept apart from their entries by an older version, until the start-up fold (data/legacy-history.repository.ts). */
export interface LegacyHistoryStore {
  events(userId: string, itemId: Id): Promise<HistoryEvent[]>;
  deleteOf(userId: string, itemIds: readonly Id[], session: Session): Promise<void>;
  deletePairs(pairs: ReadonlyArray<{ userId: string; itemId: Id }>, session: Session): Promise<void>;
  moveItem(from: Id, into: Id, session: Session): Promise<void>;
  deleteAllOfUser(userId: string, session: Session): Promise<void>;
}
