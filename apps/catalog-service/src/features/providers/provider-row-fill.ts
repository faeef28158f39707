import type { Logger } from '@mt/logging';
import type { CategoryDefinition } from '../../domain/categories';
import type { CategoryProviders } from './category-providers';
import { workEntryFields } from './provider-work-entry';

/**
 * The metadata a provider has for an import row that matched no entry but carries that provider's id
 * (a Trakt or media-tracker row's `tmdb`, a row's `openlibrary`): the entry is then created with it, not from
 * the row's title alone. A provider that fails leaves the row to its title-only entry: an import never
 * fails for a provider.
 */
export class ProviderRowFill {
  constructor(
    private readonly category: CategoryDefinition,
    private readonly providers: CategoryProviders,
    private readonly logger: Logger,
  ) {}

  async fieldsFor(externalIds: Readonly<Record<string, string>>): Promise<Record<string, unknown> | null> {
    for (const id of this.providers.ids()) {
      const providerId = await this.providers.providerIdOf(id, externalIds).catch((error: unknown) => {
        this.logger.debug({ provider: id, reason: (error as Error).message }, 'import row not found at the provider by its other ids');
        return undefined;
      });
      if (providerId === undefined) continue;
      try {
        const chosen = this.providers.chooseFor(id, providerId);
        const { work } = await this.providers.read(chosen, providerId);
        return { ...workEntryFields(this.category, work) };
      } catch (error) {
        this.logger.debug({ provider: id, provider_id: providerId, reason: (error as Error).message }, 'import row created without provider metadata');
        return null;
      }
    }
    return null;
  }
}
