import type { Session } from './atomic.port';
import type { Id } from '../ids';
import type { EntryChange, EntryDocument, ItemSummaryRow } from '../records/catalog-entry.record';

/**
 * The catalog's entries (data/catalog.repository.ts). Writes refused by a unique rule throw
 * DuplicateEntryError or DuplicateExternalIdError.
 */
export interface CatalogStore {
  insert(doc: EntryDocument, session: Session): Promise<void>;
  insertAll(docs: readonly EntryDocument[], session: Session): Promise<void>;
  updateIfCreatedBy(id: Id, createdBy: string | null, change: EntryChange, session: Session): Promise<EntryDocument | null>;
  deleteById(id: Id, session: Session): Promise<EntryDocument | null>;
  claimForList(id: Id, session: Session): Promise<ItemSummaryRow | null>;
  findById(id: Id, session?: Session): Promise<EntryDocument | null>;
  setExternalIds(id: Id, ids: Record<string, string>, keys: string[], now: Date, session: Session): Promise<EntryDocument | null>;
  findByExternalKeys(keys: readonly string[]): Promise<Array<Pick<EntryDocument, '_id' | 'external_keys'>>>;
  findByTitleKeys(titleKeys: readonly string[]): Promise<Array<Pick<EntryDocument, '_id' | 'title_key' | 'year'>>>;
  summaries(ids: readonly Id[], session?: Session): Promise<Map<string, ItemSummaryRow>>;
  findDuplicate(titleKeyValue: string, year: number | null, excludeId?: Id): Promise<Id | null>;
  findByExternalKey(key: string): Promise<EntryDocument | null>;
  findExternalKeyHolder(keys: readonly string[], excludeId?: Id): Promise<Id | null>;
  releaseCreator(userId: string): Promise<number>;
}
