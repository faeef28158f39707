import type { CatalogStore } from '../../domain/ports/catalog-store.port';
import type { ListChangesStore } from '../../domain/ports/list-changes-store.port';
import type { ImportJobsStore } from '../../domain/ports/import-jobs-store.port';
import type { ListOwnersStore } from '../../domain/ports/list-owners-store.port';
import type { ListStore } from '../../domain/ports/list-store.port';
import type { AtomicRunner } from '../../domain/ports/atomic.port';
import type { PlaysStore } from '../../domain/ports/plays-store.port';

export interface UserDeletionServiceDeps {
  lists: ListStore;
  owners: ListOwnersStore;
  changes: ListChangesStore;
  catalog: CatalogStore;
  imports: ImportJobsStore;
  plays: Pick<PlaysStore, 'deleteAllOfUser'>;
  atomic: AtomicRunner;
  now?: () => Date;
}

/**
 * What a deleted account means for this category: the user's list (and its plays, its change feed, and their import jobs with their uploads) is removed, the catalog
 * entries they created stay with `created_by: null`. The list goes in one transaction with the user's
 * list-owner document, marked deleted: a list write racing the deletion either committed before (and its
 * entry is removed here) or runs after and fails, so no entry can outlive the account. Every step is
 * idempotent, so a redelivered event (at-least-once) or one completed after a crash part-way is harmless.
 */
export class UserDeletionService {
  private readonly now: () => Date;

  constructor(private readonly deps: UserDeletionServiceDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  async eraseUser(userId: string): Promise<{ list_entries_removed: number; entries_released: number }> {
    await this.deps.owners.ensure(userId);
    let importIds: Awaited<ReturnType<ImportJobsStore['deleteAllOfUser']>> = [];
    const listEntries = await this.deps.atomic.run(async (session) => {
      await this.deps.owners.markDeleted(userId, this.now(), session);
      // A running import's next batch finds the owner deleted (and its record gone) and stops: nothing is left.
      importIds = await this.deps.imports.deleteAllOfUser(userId, session);
      await this.deps.changes.deleteAllOfUser(userId, session);
      await this.deps.plays.deleteAllOfUser(userId, session);
      return this.deps.lists.deleteAllOfUser(userId, session);
    });
    await this.deps.imports.deleteUploads(importIds);
    const entriesReleased = await this.deps.catalog.releaseCreator(userId);
    return { list_entries_removed: listEntries, entries_released: entriesReleased };
  }
}
