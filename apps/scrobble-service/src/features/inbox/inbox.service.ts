import { errors } from '@mt/errors';
import type { CatalogMatch, InboxEntry } from '../../domain/ports';
import type { EventStore, InboxStore, MappingStore } from '../../domain/store-ports';
import type { EventProcessor } from '../processing/event-processor';

/** Entries listed at once: one per hook and media, so a user's inbox stays small. */
export const INBOX_LIST_LIMIT = 500;

export class InboxService {
  constructor(private readonly deps: { inbox: InboxStore; events: EventStore; mappings: MappingStore; processor: EventProcessor }) {}

  list(userId: string): Promise<InboxEntry[]> {
    return this.deps.inbox.list(userId, INBOX_LIST_LIMIT);
  }

  /**
   * Records the entry's waiting plays against `itemId`, remembers the choice for the hook's later events of
   * the same movie or show, and removes the entry. Each play keeps its event's source id, so a resolve
   * retried after a failure records nothing twice.
   */
  async resolve(userId: string, entryId: string, itemId: string): Promise<{ recorded: number }> {
    const { inbox, events, mappings, processor } = this.deps;
    const entry = await inbox.get(userId, entryId);
    if (!entry) throw errors.notFound('inbox entry not found');
    const episode = entry.season !== null && entry.number !== null ? { season: entry.season, number: entry.number } : null;
    if (entry.category === 'tvshows' && !episode) throw errors.validation('this episode came without a season and number: it cannot be recorded against a show');
    const match: CatalogMatch = { category: entry.category, itemId, episode };
    let recorded = 0;
    for (const event of await events.getMany(userId, entry.eventIds)) {
      if (event.status === 'recorded') continue;
      if (!(await processor.apply(event, match))) throw errors.notFound(`${entry.category === 'movies' ? 'movie' : 'show or episode'} not found in the catalog`);
      recorded++;
    }
    await mappings.remember({ hookId: entry.hookId, userId, subjectKey: entry.subjectKey, category: entry.category, itemId });
    await inbox.removeResolved(entry);
    return { recorded };
  }

  async dismiss(userId: string, entryId: string): Promise<void> {
    if (!(await this.deps.inbox.delete(userId, entryId))) throw errors.notFound('inbox entry not found');
  }
}
