import { idPairs } from '../../domain/media-ids';
import type { CatalogMatch, CatalogPort, StoredEvent } from '../../domain/ports';
import type { MappingStore } from '../../domain/store-ports';

const episodeOf = (event: StoredEvent): CatalogMatch['episode'] =>
  event.event.season !== null && event.event.number !== null ? { season: event.event.season, number: event.event.number } : null;

/**
 * Finds an event's item (and episode) in the catalog, in the order of docs/api.md "Scrobbling from media
 * servers": what the owner chose for this hook before, then external ids, then the folded title (+ year for
 * a movie; a show's year is ignored), then the catalog's metadata providers, which add the work to the catalog.
 */
export class Matcher {
  constructor(private readonly deps: { catalog: CatalogPort; mappings: MappingStore }) {}

  async match(event: StoredEvent): Promise<CatalogMatch | null> {
    const remembered = await this.deps.mappings.find(event.hookId, event.subjectKey);
    if (remembered) {
      if (remembered.category === 'movies') return { category: 'movies', itemId: remembered.itemId, episode: null };
      const episode = episodeOf(event);
      return episode ? { category: 'tvshows', itemId: remembered.itemId, episode } : null;
    }
    const found = event.event.media === 'movie' ? await this.movie(event) : await this.episode(event);
    return found ?? (await this.fromProvider(event));
  }

  /** The work added from the category's providers, as created by the hook's owner (a show's ids only: an episode's would name another work). */
  private async fromProvider(event: StoredEvent): Promise<CatalogMatch | null> {
    const { catalog } = this.deps;
    const played = event.event;
    if (played.media === 'movie') {
      const itemId = await catalog.addFromProvider(event.userId, 'movies', { title: played.title, year: played.year, externalIds: played.ids });
      return itemId ? { category: 'movies', itemId, episode: null } : null;
    }
    const episode = episodeOf(event);
    if (!episode) return null;
    const itemId = await catalog.addFromProvider(event.userId, 'tvshows', { title: played.showTitle, year: null, externalIds: played.ids });
    return itemId ? { category: 'tvshows', itemId, episode } : null;
  }

  private async movie(event: StoredEvent): Promise<CatalogMatch | null> {
    const { catalog } = this.deps;
    for (const [key, value] of idPairs(event.event.ids)) {
      const itemId = await catalog.findByExternalId('movies', key, value);
      if (itemId) return { category: 'movies', itemId, episode: null };
    }
    const itemId = event.event.title ? await catalog.findByTitle('movies', event.event.title, event.event.year) : null;
    return itemId ? { category: 'movies', itemId, episode: null } : null;
  }

  private async episode(event: StoredEvent): Promise<CatalogMatch | null> {
    const { catalog } = this.deps;
    for (const [key, value] of idPairs(event.event.episodeIds)) {
      const found = await catalog.findEpisode({ externalId: `${key}:${value}` });
      if (found) return { category: 'tvshows', itemId: found.itemId, episode: { episode_id: found.episodeId } };
    }
    const episode = episodeOf(event);
    if (!episode) return null;
    for (const [key, value] of idPairs(event.event.ids)) {
      const itemId = await catalog.findByExternalId('tvshows', key, value);
      if (itemId) return { category: 'tvshows', itemId, episode };
    }
    const itemId = event.event.showTitle ? await catalog.findByTitle('tvshows', event.event.showTitle, null) : null;
    return itemId ? { category: 'tvshows', itemId, episode } : null;
  }
}
