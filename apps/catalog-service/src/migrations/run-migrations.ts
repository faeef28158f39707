import type { Logger } from '@mt/logging';
import { externalIdsMigration } from './001-external-ids';
import { legacyUpsertsMigration } from './002-legacy-upserts';
import { legacyHistoryMigration } from './003-legacy-history';
import { itemCopiesMigration } from './004-legacy-item-copies';
import { personSearchMigration } from './005-person-search';
import { listCountersMigration } from './006-list-counters';
import type { Migration, MigrationContext } from './migration';

/** Every start-up migration, in the order they run. */
export const MIGRATIONS: readonly Migration[] = [externalIdsMigration, legacyUpsertsMigration, legacyHistoryMigration, itemCopiesMigration, personSearchMigration, listCountersMigration];

/** Runs every migration in order, each to its end; the log names those that changed something. */
export async function runMigrations(context: MigrationContext, logger: Logger): Promise<void> {
  for (const migration of MIGRATIONS) {
    const counts = await migration.run(context);
    if (Object.values(counts).some((count) => count > 0)) logger.info(counts, migration.done);
  }
}
