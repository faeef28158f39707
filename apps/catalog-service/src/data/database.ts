/**
 * The category's database: typed access to its collections, one driver handle per collection (MongoDatabase
 * of `@mt/stores`, shared with the other services). The documents are built by the repositories (derived
 * search and sort keys included), so the native collections are used directly: the category's own fields
 * are data, not a fixed mongoose schema.
 */
export { MongoDatabase as CatalogDatabase } from '@mt/stores';

export const COLLECTIONS = {
  entries: 'entries',
  listEntries: 'list_entries',
  listOwners: 'list_owners',
  listChanges: 'list_changes',
  /** Small documents per catalog entry that import batches and changes of the entry both write (ItemGuardsRepository.touchGuards). */
  listItemGuards: 'list_item_guards',
  counters: 'counters',
  /** Merged entries' ids and their survivor (the merged id answers 301). */
  entryRedirects: 'entry_redirects',
  importJobs: 'import_jobs',
  /** The episodes of episodic categories' works (tvshows), one document each. */
  episodes: 'episodes',
  /** One document per play (a finished viewing), see PlaysRepository. */
  plays: 'plays',
  /** Removed plays, for the change feed (expire like the list's tombstones). */
  playDeletions: 'play_deletions',
  importUploads: 'import_uploads',
} as const;
