import type { Session } from './atomic.port';
import type { Id } from '../ids';

/** The tombstones of the lists' change feeds (data/list-changes.repository.ts). */
export interface ListChangesStore {
  recordDeletes(userId: string, seq: number, itemIds: readonly Id[], at: Date, expiresAt: Date, session: Session): Promise<void>;
  recordDeletesOfMany(records: ReadonlyArray<{ userId: string; seq: number; itemId: Id }>, at: Date, expiresAt: Date, session: Session): Promise<void>;
  deleteAllOfUser(userId: string, session: Session): Promise<void>;
}
