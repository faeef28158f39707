import { errors } from '@mt/errors';
import { externalKey } from '@mt/domain';
import type { ProviderSeason } from '@mt/providers';
import type { CategoryDefinition } from '../../domain/categories';
import { toId } from '../../domain/ids';
import type { CatalogStore } from '../../domain/ports/catalog-store.port';
import { MAX_EPISODE_NUMBER, MAX_EPISODES_PER_SEASON, MAX_SEASON } from '../../domain/episodes';
import type { EpisodesService } from '../episodes/episodes.service';
import { catalogSchemas } from '../catalog/catalog.schemas';
import type { CatalogService, EntryResponse } from '../catalog/catalog.service';
import type { CategoryProviders } from './category-providers';
import { refreshEntryFields, workEntryFields } from './provider-work-entry';

export interface ProviderImportDeps {
  category: CategoryDefinition;
  providers: CategoryProviders;
  catalog: CatalogService;
  entries: CatalogStore;
  /** The show's episodes (episodic categories); null elsewhere. */
  episodes: Pick<EpisodesService, 'replaceSeason'> | null;
}

/** Caller of a refresh: a moderator may refresh any entry, anyone else only those they created. */
export interface RefreshCaller {
  userId: string | null;
  moderator: boolean;
}

/**
 * Catalog entries made from a provider's work (import), and brought up to date with it (refresh). The catalog's
 * own creation rules decide duplicates: concurrent imports of one work meet its external id's unique index, so
 * exactly one creates it and the others answer 409 with its id.
 */
export class ProviderImportService {
  constructor(private readonly deps: ProviderImportDeps) {}

  async import(request: { provider: string; provider_id: string }, userId: string): Promise<EntryResponse> {
    const chosen = this.deps.providers.chooseFor(request.provider, request.provider_id);
    // A work already in the catalog answers at once, without spending the provider's quota.
    const holder = await this.deps.entries.findExternalKeyHolder([externalKey(chosen.provider.id, request.provider_id)]);
    if (holder) throw errors.conflict('an entry with one of these external ids already exists', { existing_id: holder.toHexString() });
    const { work, seasons } = await this.deps.providers.read(chosen, request.provider_id);
    const entry = await this.deps.catalog.create(this.storable(workEntryFields(this.deps.category, work)) as ReturnType<typeof workEntryFields>, userId);
    if (!seasons.length) return entry;
    const id = String(entry['id']);
    await this.writeSeasons(id, seasons);
    return this.deps.catalog.get(id);
  }

  /** Re-reads the entry's provider, bypassing the cache; a show's new episodes and air dates appear, its episode ids stay. */
  async refresh(id: string, caller: RefreshCaller): Promise<EntryResponse> {
    const objectId = toId(id);
    const current = await this.deps.entries.findById(objectId);
    if (!current) throw errors.notFound(`${this.deps.category.id} entry not found`);
    if (!caller.moderator && current.created_by !== caller.userId) throw errors.forbidden('only the user who created this entry (or a moderator) may refresh it');
    const externalIds = current.external_ids;
    const source = this.deps.providers.ids().find((provider) => externalIds[provider] !== undefined);
    const providerId = source === undefined ? undefined : externalIds[source];
    if (!source || !providerId) throw errors.conflict(`this entry has no id of a configured provider (${this.deps.providers.ids().join(', ') || 'none'})`);
    const chosen = this.deps.providers.chooseFor(source, providerId);
    const { work, seasons } = await this.deps.providers.read(chosen, providerId, { fresh: true });
    const patch = this.storable(refreshEntryFields(this.deps.category, work, { own: current.own, external_ids: externalIds }), 'patch');
    if (Object.keys(patch).length) await this.deps.catalog.update(id, patch, caller.userId ?? '', true);
    await this.writeSeasons(id, seasons);
    return this.deps.catalog.get(id);
  }

  /**
   * Each season replaced whole through the episodes use case, as a moderator would: numbers that stay keep their
   * episode ids, so plays naming them stay attached. Seasons beyond the catalog's bounds are left out.
   */
  private async writeSeasons(showId: string, seasons: readonly ProviderSeason[]): Promise<void> {
    if (!this.deps.episodes) return;
    for (const season of seasons) {
      if (season.number > MAX_SEASON) continue;
      await this.deps.episodes.replaceSeason(showId, season.number, season.episodes.filter((episode) => episode.number <= MAX_EPISODE_NUMBER).slice(0, MAX_EPISODES_PER_SEASON), { userId: null, moderator: true });
    }
  }

  /** The fields through the catalog's own request schema: a provider value the catalog cannot hold is the provider's fault (502). */
  private storable(fields: Record<string, unknown>, kind: 'create' | 'patch' = 'create'): Record<string, unknown> {
    const schemas = catalogSchemas(this.deps.category);
    const parsed = (kind === 'create' ? schemas.CreateEntry : schemas.PatchEntry).safeParse(fields);
    if (!parsed.success) throw errors.providerUnavailable('the metadata provider sent a work this catalog cannot store');
    return parsed.data as Record<string, unknown>;
  }
}
