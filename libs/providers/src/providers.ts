import type { ProviderMedia } from '@mt/domain';
import type { AnswerCache } from './answer-cache';
import { OpenLibraryProvider } from './openlibrary';
import type { MetadataProvider, ProviderId } from './provider';
import type { ProviderHttpOptions } from './provider-http';
import type { ProviderSettings } from './provider-settings';
import { TmdbProvider } from './tmdb';

export type ProviderClientOptions = Pick<ProviderHttpOptions, 'timeoutMs' | 'retryBackoffMs' | 'fetch'>;

/** A provider a category uses, with what it asks that provider for. */
export interface CategoryProvider {
  provider: MetadataProvider;
  media: ProviderMedia;
}

/** The enabled providers' clients, sharing one answer cache. */
export function createProviders(settings: ProviderSettings, cache: AnswerCache, options: ProviderClientOptions = {}): Map<ProviderId, MetadataProvider> {
  const providers = new Map<ProviderId, MetadataProvider>();
  if (settings.tmdb) providers.set('tmdb', new TmdbProvider(settings.tmdb, cache, options));
  if (settings.openlibrary) providers.set('openlibrary', new OpenLibraryProvider(settings.openlibrary, cache, options));
  return providers;
}

/**
 * The providers serving a category: those its definition names (`{ tmdb: 'movie' }`) that the deployment
 * enabled, in the definition's order.
 */
export function providersOfCategory(definition: Readonly<Record<string, ProviderMedia>> | undefined, enabled: ReadonlyMap<ProviderId, MetadataProvider>): Map<ProviderId, CategoryProvider> {
  const serving = new Map<ProviderId, CategoryProvider>();
  for (const [id, media] of Object.entries(definition ?? {})) {
    const provider = enabled.get(id as ProviderId);
    if (provider) serving.set(provider.id, { provider, media });
  }
  return serving;
}
