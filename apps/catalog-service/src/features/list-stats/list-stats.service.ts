import type { ListOwnersRepository } from '../../data/list-owners.repository';
import type { ListRepository } from '../../data/list.repository';
import type { AtomicRunner } from '../../data/atomic';
import { countersOf, toListStats, type ListStats } from '../../domain/list-stats';

/**
 * The counters live on the user's `list_owners` document and every list write changes them in
 * its own transaction, so one read of one document is exact at that moment and costs the same for 10 or
 * 50 000 entries. A list whose owner document predates the counters is counted once, in a transaction that
 * takes the list's next sequence number (so no write of the list interleaves with the count).
 */
export class ListStatsService {
  constructor(
    private readonly owners: ListOwnersRepository,
    private readonly lists: ListRepository,
    private readonly atomic: AtomicRunner,
  ) {}

  async stats(userId: string): Promise<ListStats> {
    const counters = await this.owners.stats(userId);
    if (counters === null) return toListStats({});
    if (counters !== undefined) return toListStats(counters);
    const recounted = await this.atomic.run(async (session) => {
      await this.owners.recordForeignWrite(userId, session);
      const counted = countersOf(await this.lists.statsFieldsOfUser(userId, session));
      await this.owners.setStats(userId, counted, session);
      return counted;
    });
    return toListStats(recounted);
  }
}
