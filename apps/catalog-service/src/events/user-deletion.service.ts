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

  async eraseUser(userId: string): Promise<{ listEntries: number; entriesReleased: number }> {
    const listEntries = await this.lists.deleteAllOfUser(userId);
    const entriesReleased = await this.catalog.releaseCreator(userId);
    return { listEntries, entriesReleased };
  }
}
