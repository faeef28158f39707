import { titleKey } from '@mt/domain';
import { errors, isAppError } from '@mt/errors';
import type { Logger } from '@mt/logging';
import { ProviderNotFoundError, type ProviderId } from '@mt/providers';
import type { CategoryProviders } from './category-providers';
import type { ProviderImportService } from './provider-import.service';

/** A work as a media server names it: its ids (imdb, tmdb, tvdb…), its title, and its year when it decides. */
export interface ProviderMatchQuery {
  title: string | null;
  /** Only works of this year; null when the year does not decide (a show's episode carries the episode's year). */
  year: number | null;
  external_ids: Readonly<Record<string, string>>;
}

export interface ProviderMatch {
  item_id: string;
  /** True when this call added the entry; false when an entry held the work already. */
  created: boolean;
}

/** The provider answers that mean "try later": it failed, timed out, or refused (its 429). */
const PROVIDER_FAILURES = new Set(['provider_unavailable', 'service_unavailable']);

/**
 * A work a media server played that the catalog does not hold yet (docs/api.md "Scrobbling from media servers"):
 * found at the category's providers by one of its ids, else by its exact folded title (and year when it
 * decides), and added to the catalog as created by the user. Never a guess: a title several works share finds
 * nothing. Concurrent matches of one work meet the import's unique external id, so one entry is created.
 */
export class ProviderMatchService {
  constructor(private readonly deps: { providers: CategoryProviders; imports: Pick<ProviderImportService, 'import'>; logger: Logger }) {}

  /** The entry of the work, created when needed; null when no provider finds it. A failing provider is a 502. */
  async match(query: ProviderMatchQuery, userId: string): Promise<ProviderMatch | null> {
    try {
      const found = await this.find(query);
      return found ? await this.addOrFind(found.provider, found.providerId, userId) : null;
    } catch (error) {
      if (error instanceof ProviderNotFoundError) return null;
      if (isAppError(error) && PROVIDER_FAILURES.has(error.code)) {
        this.deps.logger.warn({ reason: error.message }, 'provider lookup of a scrobbled work failed');
        throw errors.providerUnavailable(error.message);
      }
      throw error;
    }
  }

  private async find(query: ProviderMatchQuery): Promise<{ provider: ProviderId; providerId: string } | null> {
    const providers = this.deps.providers.ids();
    for (const provider of providers) {
      const providerId = await this.deps.providers.providerIdOf(provider, query.external_ids);
      if (providerId !== undefined) return { provider, providerId };
    }
    if (!query.title || !providers.length) return null;
    const wanted = titleKey(query.title);
    for (const { provider, media } of this.deps.providers.choose(undefined)) {
      const hits = await provider.search(media, { q: query.title, ...(query.year === null ? {} : { year: query.year }) });
      const same = hits.filter((hit) => titleKey(hit.title) === wanted && (query.year === null || hit.year === query.year));
      if (same.length > 1) return null;
      if (same[0]) return { provider: provider.id, providerId: same[0].provider_id };
    }
    return null;
  }

  private async addOrFind(provider: ProviderId, providerId: string, userId: string): Promise<ProviderMatch | null> {
    try {
      const entry = await this.deps.imports.import({ provider, provider_id: providerId }, userId);
      return { item_id: String(entry['id']), created: true };
    } catch (error) {
      if (!isAppError(error)) throw error;
      const existing = error.extra?.['existing_id'];
      if (error.code === 'conflict' && typeof existing === 'string') return { item_id: existing, created: false };
      if (error.code === 'not_found') return null;
      throw error;
    }
  }
}
