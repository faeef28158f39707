import { errors } from '@mt/errors';
import type { Connection, mongo } from 'mongoose';

/**
 * Typed access to this category's collections through the mongoose connection. The documents are built
 * by the repositories (derived search and sort keys included), so the native collections are used
 * directly: the category's own fields are data, not a fixed mongoose schema.
 */
export class CatalogDatabase {
  /**
   * The driver builds a new collection object (its options resolved again) on every `db.collection()`;
   * repositories ask for one per statement, so they are kept per connected database.
   */
  private handles = new Map<string, mongo.Collection<mongo.Document>>();

  private handlesOf: mongo.Db | undefined;

  constructor(readonly connection: Connection) {}

  collection<T extends mongo.Document>(name: string): mongo.Collection<T> {
    const db = this.connection.db;
    // Requests are refused (503) until start-up has connected; this guards the window after a close.
    if (!db) throw errors.serviceUnavailable('database unavailable');
    if (this.handlesOf !== db) {
      this.handles = new Map();
      this.handlesOf = db;
    }
    let handle = this.handles.get(name);
    if (!handle) {
      handle = db.collection(name);
      this.handles.set(name, handle);
    }
    return handle as unknown as mongo.Collection<T>;
  }
}

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
