import type { ShardingDeclaration } from '@mt/stores';
import { ENTRY_SHARDING } from './catalog.repository';
import { COUNTER_SHARDING } from './catalog-counter';
import { ENTRY_REDIRECT_SHARDING } from './entry-redirects.repository';
import { EPISODE_SHARDING } from './episodes.repository';
import { IMPORT_JOB_SHARDING, IMPORT_UPLOAD_SHARDING } from './import-jobs.repository';
import { ITEM_GUARD_SHARDING } from './item-guards.repository';
import { LIST_CHANGE_SHARDING } from './list-changes.repository';
import { LIST_ENTRY_SHARDING } from './list-entry.document';
import { LIST_OWNER_SHARDING } from './list-owners.repository';
import { PLAY_DELETION_SHARDING, PLAY_SHARDING } from './plays.repository';

/**
 * Every collection's sharding declaration (each lives beside its collection's indexes), gathered for the test
 * that checks them against the indexes a started catalog has, and for docs/operations.md "Sharding".
 */
export const CATALOG_SHARDING: readonly ShardingDeclaration[] = [
  ENTRY_SHARDING,
  COUNTER_SHARDING,
  ENTRY_REDIRECT_SHARDING,
  EPISODE_SHARDING,
  IMPORT_JOB_SHARDING,
  IMPORT_UPLOAD_SHARDING,
  ITEM_GUARD_SHARDING,
  LIST_CHANGE_SHARDING,
  LIST_ENTRY_SHARDING,
  LIST_OWNER_SHARDING,
  PLAY_SHARDING,
  PLAY_DELETION_SHARDING,
];
