import { DEFAULT_LIMIT, type Page } from '@mt/contracts';
import { errors } from '@mt/errors';
import { KeyedMutex } from '@mt/stores';
import { externalKey } from '@mt/domain';
import { toId } from '../../domain/ids';
import type { CategoryDefinition } from '../../domain/categories';
import { pageWindow, toPage } from '../../domain/offset-page';
import { episodeCountFields, type EpisodeInput, type SeasonEditor } from '../../domain/episodes';
import type { CatalogStore } from '../../domain/ports/catalog-store.port';
import type { EpisodesStore } from '../../domain/ports/episodes-store.port';
import { TransactionContentionError, type AtomicRunner } from '../../domain/ports/atomic.port';
import { toEpisodeResponse, type EpisodeResponse } from './episode.response';

export interface EpisodesServiceDeps {
  category: CategoryDefinition;
  episodes: EpisodesStore;
  entries: CatalogStore;
  atomic: AtomicRunner;
  now?: () => Date;
}

/** The episodes of an episodic category's works: listed by anyone, written a season at a time. */
export class EpisodesService {
  private readonly writing = new KeyedMutex();

  private readonly now: () => Date;

  constructor(private readonly deps: EpisodesServiceDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  async list(showId: string, query: { season?: number; page?: number; limit?: number }): Promise<Page<EpisodeResponse>> {
    const id = toId(showId);
    if (!(await this.deps.entries.findById(id))) throw this.showNotFound();
    const window = pageWindow(query.page, query.limit ?? DEFAULT_LIMIT);
    const [total, rows] = await Promise.all([this.deps.episodes.count(id, query.season), this.deps.episodes.page(id, query.season, window)]);
    return toPage(rows.map(toEpisodeResponse), window, total);
  }

  /**
   * Makes season `season` of the show exactly `episodes` (numbers unique: the schema checks requests, this
   * checks every caller), keeping the ids of numbers that stay, and sets the show's counts, in one transaction.
   * The editor must have created the show unless acting as a moderator (a provider import does).
   */
  async replaceSeason(showId: string, season: number, episodes: readonly EpisodeInput[], editor: SeasonEditor): Promise<EpisodeResponse[]> {
    const numbers = new Set(episodes.map((episode) => episode.number));
    if (numbers.size !== episodes.length) throw errors.validation('episode numbers must be unique within a season', [{ path: 'episodes', message: 'a number appears twice' }]);
    const id = toId(showId);
    const capability = this.episodic();
    try {
      // Writes of one show's seasons take turns in this process; across instances they conflict on the show
      // (written first) and run again, so they never meet on the episodes' unique index.
      const saved = await this.writing.use(showId, () =>
        this.deps.atomic.run(async (session) => {
          // The creator check claims the show: a show removed meanwhile, or a refused editor, aborts it all.
          const claimed = await this.deps.entries.updateIfCreatedBy(id, editor.moderator ? null : editor.userId, { set: { updated_at: this.now() }, unset: [] }, session);
          if (!claimed) {
            const exists = await this.deps.entries.findById(id, session);
            throw exists ? errors.forbidden('only the user who created this show (or a moderator) may change its episodes') : this.showNotFound();
          }
          const written = await this.deps.episodes.replaceSeason(id, season, episodes, session);
          const set = episodeCountFields(capability, await this.deps.episodes.allOf(id, session));
          await this.deps.entries.updateIfCreatedBy(id, null, { set, unset: [] }, session);
          return written;
        }),
      );
      return saved.map(toEpisodeResponse);
    } catch (error) {
      if (error instanceof TransactionContentionError) throw errors.serviceUnavailable('this show is being changed by too many requests at once; try again');
      throw error;
    }
  }

  /** An episode by one of its external ids or by its place in a show (scrobblers' matching); 404 when none. */
  async lookup(query: { external_id?: { key: string; value: string }; show_id?: string; season?: number; number?: number }) {
    const found = query.external_id
      ? await this.deps.episodes.findByExternalKey(externalKey(query.external_id.key, query.external_id.value))
      : await this.deps.episodes.find(toId(query.show_id ?? ''), query.season ?? 0, query.number ?? 0);
    if (!found) throw errors.notFound('no such episode');
    return { item_id: found.showId.toHexString(), episode: { id: found.id.toHexString(), season: found.season, number: found.number } };
  }

  private episodic() {
    const capability = this.deps.category.episodic;
    if (!capability) throw new Error(`category '${this.deps.category.id}' has no episodes`);
    return capability;
  }

  private showNotFound() {
    return errors.notFound(`${this.deps.category.id} entry not found`);
  }
}
