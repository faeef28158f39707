import { externalKeysOf } from '@mt/domain';
import type { Migration } from './migration';
import { storedExternalIds } from '../domain/catalog-entry';

/**
 * Entries written before external ids existed get the ids derived from their own fields (books: isbn13), so
 * a lookup by a derived id finds them. Eager, not lazy: a lookup must not miss an entry not yet read.
 */
export const externalIdsMigration: Migration = {
  id: '001-external-ids',
  removableAfter: '1.0.0',
  done: 'external ids migrated',
  run: ({ category, entries }) => entries.migrateExternalIds((doc) => storedExternalIds(category, { own: doc.own }), externalKeysOf),
};
