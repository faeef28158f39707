import { errors } from '@mt/errors';
import { mongo } from 'mongoose';
import type { CategoryDefinition } from '../categories/categories';
import type { CatalogRepository } from '../catalog/catalog.repository';
import type { ListService } from '../lists/lists.service';
import { TransactionContentionError, type AtomicRunner, type Session } from '../shared/atomic';

/**
 * Catalog moderation (API.md §13) beyond PATCH: removing an entry. Runs in one transaction with every list
 * entry that points at it (ListService.removeEntriesOfItem), so no list is left pointing at a missing entry
 * and every removal is in its owner's change feed.
 */
export class ModerationService {
  constructor(
    private readonly category: CategoryDefinition,
    private readonly entries: CatalogRepository,
    private readonly lists: ListService,
    private readonly atomic: AtomicRunner,
  ) {}

  async remove(id: string): Promise<{ message: string; list_entries_removed: number }> {
    const objectId = new mongo.ObjectId(id);
    const removed = await this.transaction(async (session) => {
      // The entry first: a list addition racing this conflicts on it (see CatalogRepository.claimForList).
      if (!(await this.entries.deleteById(objectId, session))) return null;
      return this.lists.removeEntriesOfItem(objectId, session);
    });
    if (removed === null) throw this.notFound();
    return { message: `${this.category.id} entry removed`, list_entries_removed: removed };
  }

  private async transaction<T>(work: (session: Session) => Promise<T>): Promise<T> {
    try {
      return await this.atomic.run(work);
    } catch (error) {
      if (error instanceof TransactionContentionError) throw errors.serviceUnavailable('the entry is being changed by too many requests at once; try again');
      throw error;
    }
  }

  private notFound() {
    return errors.notFound(`${this.category.id} entry not found`);
  }
}
