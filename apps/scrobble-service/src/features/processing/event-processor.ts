import type { Logger } from '@mt/logging';
import { CatalogRefused, ProviderUnavailable, type CatalogMatch, type CatalogPort, type StoredEvent } from '../../domain/ports';
import type { EventStore, HookStore, InboxStore } from '../../domain/store-ports';
import type { Matcher } from './matcher';

/** The play's `source` (docs/api.md "Episodes, plays and rewatches"). */
export const sourceOf = (event: Pick<StoredEvent, 'server'>): string => `scrobble:${event.server}`;

/** Deterministic per event: a job run twice (a crash after the catalog wrote) records the play once. */
export const sourceEventIdOf = (event: Pick<StoredEvent, 'id'>): string => `scrobble:${event.id}`;

/** What the queue's worker runs for one accepted event; safe to run again at any point. */
export class EventProcessor {
  constructor(
    private readonly deps: {
      events: EventStore;
      hooks: HookStore;
      inbox: InboxStore;
      matcher: Matcher;
      catalog: CatalogPort;
      logger: Logger;
      /** How long after its receipt an event keeps waiting for a failing metadata provider. */
      providerPatienceMs: number;
      now?: () => Date;
    },
  ) {}

  async process(eventId: string): Promise<void> {
    const { events, hooks } = this.deps;
    const event = await events.get(eventId);
    if (!event || event.status !== 'pending') return;
    // A hook deleted since: its owner no longer wants its events.
    if (!(await hooks.get(event.hookId))) return events.finish(event.id, 'gone');
    try {
      const match = await this.deps.matcher.match(event);
      if (match && (await this.apply(event, match))) return;
    } catch (error) {
      if (!this.givesUp(event, error)) throw error;
      this.deps.logger.warn({ event_id: event.id, reason: (error as Error).message }, 'a scrobbled event could not be applied; parked in the inbox');
    }
    await this.park(event);
  }

  /**
   * A refusal for good, or a provider failing for longer than the patience: the owner sees the play in the inbox
   * rather than the queue retrying it forever. Anything else is retried (the queue, then the pending sweep).
   */
  private givesUp(event: StoredEvent, error: unknown): boolean {
    if (error instanceof CatalogRefused) return true;
    const now = this.deps.now?.() ?? new Date();
    return error instanceof ProviderUnavailable && now.getTime() - event.receivedAt.getTime() >= this.deps.providerPatienceMs;
  }

  /** Records the play (or the start); false when the catalog does not know the item or episode. */
  async apply(event: StoredEvent, match: CatalogMatch): Promise<boolean> {
    const { catalog, events } = this.deps;
    if (event.action === 'start') {
      if (!(await catalog.startWatching(event.userId, match, sourceOf(event)))) return false;
      await events.finish(event.id, 'watching', { itemId: match.itemId });
      return true;
    }
    const recorded = await catalog.recordPlay(event.userId, match, { watchedAt: event.receivedAt, sourceEventId: sourceEventIdOf(event), source: sourceOf(event) });
    if (!recorded) return false;
    await events.finish(event.id, 'recorded', { itemId: match.itemId, playId: recorded.playId });
    return true;
  }

  /** An unmatched play waits in the owner's inbox; an unmatched start has nothing to wait for. */
  private async park(event: StoredEvent): Promise<void> {
    const { event: body } = event;
    if (event.action === 'play') {
      await this.deps.inbox.add(
        {
          userId: event.userId,
          hookId: event.hookId,
          server: event.server,
          mediaKey: event.mediaKey,
          subjectKey: event.subjectKey,
          category: body.media === 'movie' ? 'movies' : 'tvshows',
          title: body.media === 'movie' ? body.title : body.showTitle,
          year: body.year,
          season: body.season,
          number: body.number,
          externalIds: { ...body.ids, ...body.episodeIds },
          eventId: event.id,
        },
        this.deps.now?.() ?? new Date(),
      );
    }
    await this.deps.events.finish(event.id, 'unmatched');
  }
}
