import type { CategoryDefinition } from '../domain/categories';
import type { AtomicRunner } from '../data/atomic';
import type { CatalogRepository } from '../data/catalog.repository';
import type { CatalogDatabase } from '../data/database';
import { LegacyEntriesRepository } from './legacy-entries.repository';
import { LegacyHistoryRepository } from './legacy-history.repository';
import { LegacyListChangesRepository } from './legacy-list-changes.repository';
import { LegacyListEntriesRepository } from './legacy-list-entries.repository';
import { LegacyListOwnersRepository } from './legacy-list-owners.repository';

/** What the start-up migrations read and write. */
export interface MigrationContext {
  category: CategoryDefinition;
  atomic: AtomicRunner;
  entries: LegacyEntriesRepository;
  catalog: CatalogRepository;
  listEntries: LegacyListEntriesRepository;
  listChanges: LegacyListChangesRepository;
  legacyHistory: LegacyHistoryRepository;
  listOwners: LegacyListOwnersRepository;
}

/** The migrations' stores on the category's database: only they read and write the older shapes. */
export function createMigrationContext({ category, db, atomic, catalog }: { category: CategoryDefinition; db: CatalogDatabase; atomic: AtomicRunner; catalog: CatalogRepository }): MigrationContext {
  return {
    category,
    atomic,
    catalog,
    entries: new LegacyEntriesRepository(db),
    listEntries: new LegacyListEntriesRepository(db),
    listChanges: new LegacyListChangesRepository(db),
    legacyHistory: new LegacyHistoryRepository(db),
    listOwners: new LegacyListOwnersRepository(db),
  };
}

/**
 * One start-up step that brings documents of an older shape to the current one. Idempotent: every start runs
 * every step, and a step with nothing left to do costs one indexed read.
 */
export interface Migration {
  /** `<number>-<name>`: start-up runs the steps in this order. */
  readonly id: string;
  /**
   * The release after which the step, with the `legacy-*` repository methods only it uses, can be deleted: an
   * upgrade from an older release must pass through this one (its start-up runs the step).
   */
  readonly removableAfter: string;
  /** What the log says when the step changed something (with its counts). */
  readonly done: string;
  run(context: MigrationContext): Promise<Record<string, number>>;
}
