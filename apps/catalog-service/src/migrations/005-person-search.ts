import type { Migration } from './migration';
import { personPrefixes } from '../domain/catalog-entry';

/**
 * Entries written before `person=` existed get their person search keys. Removable after 1.0.0 (an upgrade
 * from an older release passes through it).
 */
export const personSearchMigration: Migration = {
  id: '005-person-search',
  removableAfter: '1.0.0',
  done: 'person search keys backfilled',
  run: async ({ category, entries }) => ({ entries: await entries.backfillMissing('person_prefixes', (doc) => personPrefixes(category, doc.own ?? {})) }),
};
