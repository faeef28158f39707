import { PROGRESS_LENGTH_FIELDS } from '@mt/domain';
import type { Id } from '../ids';
import type { EntryResponseSource, ItemSummaryRow } from './catalog-entry.record';
import type { HistoryEvent } from '../list-history';
import type { ListStatus } from '../list-entry';

/** The catalog entry a list entry points at, with what the entry keeps of it (title sort key, title, year). */
export interface ListedItem {
  id: Id;
  titleKey: string;
  title: string;
  year: number | null;
  /** A book's `pages` (null when unknown or not a book). */
  pages: number | null;
  posterUrl: string | null;
}

export function listedItem(row: ItemSummaryRow): ListedItem {
  const pages = row.own?.[PROGRESS_LENGTH_FIELDS.pages];
  return { id: row._id, titleKey: row.title_key, title: row.title, year: row.year, pages: typeof pages === 'number' ? pages : null, posterUrl: row.poster_url ?? null };
}

/**
 * One entry of a user's list. `item_title_key` (the item's folded title, renamed with it) serves the
 * title sort; `item_title` and `item_year` are what responses show of the item, so a page reads no
 * catalog entry; `score_missing` puts entries without a score last in both orders; `rev` counts writes for
 * optimistic concurrency on PATCH. The `item_*` copies change with the catalog entry in its own
 * transactions (an edit of its title, year, pages or poster, a merge): see `ListRepository.copyItemIntoEntries`, `moveItem`.
 */
export interface ListEntryDocument {
  _id: Id;
  user_id: string;
  item_id: Id;
  item_title_key: string;
  /** Absent only where the catalog entry was removed by hand before migrations/004 could copy it: shown empty. */
  item_title?: string;
  item_year?: number | null;
  /** The book's `pages` as the entry keeps it (with the title): its `progress_percent`. */
  item_pages?: number | null;
  /** The item's `poster_url` as the entry keeps it (absent, like `item_title`, only where there was nothing to copy). */
  item_poster_url?: string | null;
  status: ListStatus;
  score: number | null;
  score_missing: 0 | 1;
  progress: number | null;
  notes: string | null;
  started_at: string | null;
  finished_at: string | null;
  created_at: Date;
  updated_at: Date;
  rev: number;
  /**
   * The entry's place in its owner's change feed: the list's sequence number (`list_owners.seq`) of the
   * write that last changed it (0: not changed since before the feed numbered entries). Tombstones of
   * removed entries are in `list_changes`.
   */
  seq: number;
  /** Times the entry went from `completed` back to `watching` (absent on entries stored before it: 0). */
  repeat_count?: number;
  /** The rewatch cycle new plays belong to (absent: 1, the first). */
  cycle?: number;
  /**
   * Kept by every play write of an episodic work: the first regular episode not played in the cycle (null:
   * none), and the latest known `watched_at` of its plays (up-next reads both through an index).
   */
  next_episode?: { season: number; number: number } | null;
  last_played_at?: Date | null;
  /**
   * Its changes of status, score and progress, newest first, at most MAX_HISTORY_PER_ENTRY:
   * written by the same statement as the change, removed with the entry. Only `historyOf` reads it; every
   * other read leaves it out (`StoreProfile.listEntryProjection`). Absent on entries stored before it
   * that had no history kept apart (migrations/003-legacy-history.ts folded that in): none.
   */
  history?: HistoryEvent[];
}

/** What the export writes of a list entry, with its catalog entry (none when it was removed meanwhile). */
export type ExportedListEntry = Pick<
  ListEntryDocument,
  'item_id' | 'status' | 'score' | 'progress' | 'notes' | 'started_at' | 'finished_at' | 'created_at' | 'updated_at'
> & { item: [EntryResponseSource] | [] };

/** The fields a PATCH sets (the repository derives `score_missing` and bumps `rev`). */
export type ListEntryChange = Partial<Pick<ListEntryDocument, 'status' | 'score' | 'progress' | 'notes' | 'started_at' | 'finished_at' | 'repeat_count' | 'cycle' | 'next_episode' | 'last_played_at'>> & {
  updated_at: Date;
  seq: number;
};

export class DuplicateListEntryError extends Error {
  override name = 'DuplicateListEntryError';
}
