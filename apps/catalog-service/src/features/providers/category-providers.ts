import { errors } from '@mt/errors';
import { ProviderNotFoundError, type CategoryProvider, type ProviderId, type ProviderSeason, type ProviderWork, type ReadOptions } from '@mt/providers';
import type { CategoryDefinition } from '../../domain/categories';

/** A work read from its provider: its metadata and, for a show, every season. */
export interface ProviderRead {
  work: ProviderWork;
  seasons: ProviderSeason[];
}

/**
 * The providers serving one category (its definition's, enabled by configuration), and the rules every
 * provider endpoint shares: which provider a request names, whether its id has that provider's shape.
 */
export class CategoryProviders {
  constructor(
    private readonly category: CategoryDefinition,
    private readonly serving: ReadonlyMap<ProviderId, CategoryProvider>,
  ) {}

  /** The configured providers' ids, as the category record lists them. */
  ids(): ProviderId[] {
    return [...this.serving.keys()];
  }

  /** The provider a request names, or every one serving the category; a 400 naming the configured ones otherwise. */
  choose(name: string | undefined): CategoryProvider[] {
    if (name === undefined && this.serving.size) return [...this.serving.values()];
    const found = name === undefined ? undefined : this.serving.get(name as ProviderId);
    if (found) return [found];
    const configured = this.ids();
    const message = configured.length ? `must be one of the configured providers: ${configured.join(', ')}` : `no metadata provider is configured for ${this.category.id}`;
    throw errors.validation('unknown or unconfigured provider', [{ path: 'provider', message }]);
  }

  /** The provider a request names, with its id checked against that provider's id format (400). */
  chooseFor(name: string, providerId: string): CategoryProvider {
    const [chosen] = this.choose(name) as [CategoryProvider];
    if (!chosen.provider.validId(chosen.media, providerId)) {
      throw errors.validation('invalid provider_id', [{ path: 'provider_id', message: `is not a ${name} id of ${this.category.id}` }]);
    }
    return chosen;
  }

  /**
   * The provider's id of a work named by external ids: its own id when given in its shape, else the one it finds
   * from another service's id (an IMDb id at TMDB); undefined when neither. A provider that fails throws.
   */
  async providerIdOf(name: ProviderId, externalIds: Readonly<Record<string, string>>): Promise<string | undefined> {
    const serving = this.serving.get(name);
    if (!serving) return undefined;
    const own = externalIds[name];
    if (own !== undefined && serving.provider.validId(serving.media, own)) return own;
    return (await serving.provider.idFor?.(serving.media, externalIds)) ?? undefined;
  }

  /** The work and, for a show, its seasons; a provider that knows no such id is a 404. */
  async read({ provider, media }: CategoryProvider, providerId: string, options: ReadOptions = {}): Promise<ProviderRead> {
    try {
      const work = await provider.fetchWork(media, providerId, options);
      const seasons = media === 'tv' ? await provider.seasons(providerId, options) : [];
      return { work, seasons };
    } catch (error) {
      if (error instanceof ProviderNotFoundError) throw errors.notFound(`${provider.id} has no work with id ${providerId}`);
      throw error;
    }
  }
}
