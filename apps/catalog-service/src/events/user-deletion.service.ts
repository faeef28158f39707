import type { CatalogRepository } from '../catalog/catalog.repository';
import type { ListRepository } from '../lists/list.repository';

/**
 * What a deleted account means for this category (API.md §3): the user's list is removed, the catalog
 * entries they created stay with `created_by: null`. Both steps are idempotent, so a redelivered event
 * (at-least-once) or one completed after a crash part-way is harmless.
 */
export class UserDeletionService {
  constructor(
    private readonly lists: ListRepository,
    private readonly catalog: CatalogRepository,
  ) {}

  async eraseUser(userId: string): Promise<{ list_entries_removed: number; entries_released: number }> {
    const listEntries = await this.lists.deleteAllOfUser(userId);
    const entriesReleased = await this.catalog.releaseCreator(userId);
    return { list_entries_removed: listEntries, entries_released: entriesReleased };
  }
}
