import { errors } from '@mt/errors';
import { externalKeysOf } from '@mt/domain';
import { posterPath, type ImageSources, type ProviderSearchHit } from '@mt/providers';
import type { CatalogStore } from '../../domain/ports/catalog-store.port';
import type { ProviderSearchQuota } from '../../domain/ports/provider-search-quota.port';
import type { CategoryProviders } from './category-providers';

export interface ProviderSearchQuery {
  q: string;
  year?: number;
  provider?: string;
}

/** A hit with the catalog entry that holds one of its ids, and its poster as this API serves it (`poster`). */
export type ProviderSearchResult = ProviderSearchHit & { existing_id: string | null; poster: string | null };

/** Searches the category's providers for works, each marked with the catalog entry that already holds one of its ids. */
export class ProviderSearchService {
  constructor(
    private readonly providers: CategoryProviders,
    private readonly entries: CatalogStore,
    private readonly quota: ProviderSearchQuota,
    private readonly images: ImageSources = {},
  ) {}

  async search(userId: string, query: ProviderSearchQuery): Promise<{ data: ProviderSearchResult[] }> {
    const chosen = this.providers.choose(query.provider);
    // Taken while the providers read their cache: a refused search still gets no answer and asks no provider.
    const allowed = this.takeAllowance(userId);
    allowed.catch(() => undefined);
    const hits = (await Promise.all(chosen.map(({ provider, media }) => provider.search(media, { q: query.q, year: query.year }, { allowed })))).flat();
    await allowed;
    const holders = new Map<string, string>();
    for (const entry of await this.entries.findByExternalKeys(hits.flatMap((hit) => externalKeysOf(hit.external_ids)))) {
      for (const key of entry.external_keys ?? []) holders.set(key, entry._id.toHexString());
    }
    return {
      data: hits.map((hit) => ({
        ...hit,
        existing_id: externalKeysOf(hit.external_ids).map((key) => holders.get(key)).find((id) => id !== undefined) ?? null,
        poster: posterPath(hit.poster_url, this.images),
      })),
    };
  }

  private async takeAllowance(userId: string): Promise<void> {
    const allowance = await this.quota.take(userId);
    if (!allowance.allowed) throw errors.rateLimited(allowance.retryAfterSeconds, 'too many provider searches; try again later');
  }
}
