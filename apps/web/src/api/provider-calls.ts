import type { CatalogEntry } from '@mt/api-client';
import { call } from './route-call';
import type { WebApi } from './web-api';

/** A work a metadata provider knows (docs/api.md "Metadata providers and images"). */
export interface ProviderHit {
  provider: string;
  provider_id: string;
  title: string;
  year: number | null;
  overview: string | null;
  poster_url: string | null;
  poster?: string | null;
  external_ids: Record<string, string>;
  /** The catalog entry that already holds one of its external ids. */
  existing_id: string | null;
}

/** How each provider is named to people. */
const PROVIDER_NAMES: Record<string, string> = { tmdb: 'TMDB', openlibrary: 'Open Library' };
export const providerName = (id: string) => PROVIDER_NAMES[id] ?? id;

/** The providers a category record lists (`providers`; absent or empty when none is configured). */
export const providersOf = (category: object): string[] => {
  const providers = (category as { providers?: unknown }).providers;
  return Array.isArray(providers) ? providers.filter((p): p is string => typeof p === 'string') : [];
};

export const searchProvider = (api: WebApi, category: string, q: string, signal?: AbortSignal) =>
  call<{ data: ProviderHit[] }>(api, 'GET', `/api/v1/${encodeURIComponent(category)}/providers/search`, { query: { q }, signal });

export const importFromProvider = (api: WebApi, category: string, hit: Pick<ProviderHit, 'provider' | 'provider_id'>) =>
  call<CatalogEntry>(api, 'POST', `/api/v1/${encodeURIComponent(category)}/providers/import`, { body: { provider: hit.provider, provider_id: hit.provider_id } });
