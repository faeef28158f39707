import { externalKeysOf } from '@mt/domain';
import type { Migration } from './migration';
import { derivedExternalIds } from '../domain/catalog-entry';

/**
 * Entries written before external ids existed get the ids derived from their own fields (books: isbn13), so
 * a lookup by a derived id finds them. Eager, not lazy: a lookup must not miss an entry not yet read, and the
 * live services read only the stored ids. Removable after 1.0.0 (an upgrade from an older release passes
 * through it).
 */
export const externalIdsMigration: Migration = {
  id: '001-external-ids',
  removableAfter: '1.0.0',
  done: 'external ids migrated',
  run: ({ category, entries }) => entries.migrateExternalIds((doc) => derivedExternalIds(category, doc.own ?? {}), externalKeysOf),
};
