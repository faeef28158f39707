import type { ProviderMedia } from '@mt/domain';

/** The metadata providers this code speaks to. */
export const PROVIDER_IDS = ['tmdb', 'openlibrary'] as const;
export type ProviderId = (typeof PROVIDER_IDS)[number];

export const isProviderId = (value: string): value is ProviderId => (PROVIDER_IDS as readonly string[]).includes(value);

/** One search result, shaped like the API answers it (docs/api.md "Metadata providers"). */
export interface ProviderSearchHit {
  provider: ProviderId;
  provider_id: string;
  title: string;
  year: number | null;
  overview: string | null;
  poster_url: string | null;
  /** At least the provider's own id (`tmdb`, `openlibrary`). */
  external_ids: Record<string, string>;
}

/** A work's metadata in the catalog's vocabulary: the shared fields, and the category's own ones under their names. */
export interface ProviderWork {
  provider: ProviderId;
  provider_id: string;
  title: string;
  year: number | null;
  description: string | null;
  genres: string[];
  poster_url: string | null;
  external_ids: Record<string, string>;
  /** Own fields of the category (`runtime_minutes`, `director`, `network`, `authors`, `isbn`, `pages`...). */
  fields: Record<string, unknown>;
}

export interface ProviderEpisode {
  number: number;
  title: string | null;
  /** `YYYY-MM-DD`, null when not announced. */
  air_date: string | null;
  runtime_minutes: number | null;
  external_ids: Record<string, string>;
}

/** One season of a show; season 0 holds the specials. */
export interface ProviderSeason {
  number: number;
  episodes: ProviderEpisode[];
}

export interface ReadOptions {
  /** Skip the cached answer (a refresh); the new answer is cached again. */
  fresh?: boolean;
  /**
   * Settled before any answer is returned or the provider is asked, and its rejection is the read's: the
   * caller's allowance. The cache is read meanwhile, so a cached search waits one round trip, not two.
   */
  allowed?: Promise<unknown>;
}

/** One metadata provider (search, fetch one work, a show's seasons and episodes, its image host). */
export interface MetadataProvider {
  readonly id: ProviderId;
  /** The base URL its `poster_url`s start with (the gateway's image route fetches only from there). */
  readonly imageBaseUrl: string;
  search(media: ProviderMedia, query: { q: string; year?: number }, options?: ReadOptions): Promise<ProviderSearchHit[]>;
  fetchWork(media: ProviderMedia, providerId: string, options?: ReadOptions): Promise<ProviderWork>;
  /** Every season of a show with its episodes, specials as season 0. */
  seasons(providerId: string, options?: ReadOptions): Promise<ProviderSeason[]>;
  /** Whether `providerId` has the shape of this provider's ids for `media` (else a 400 before any call). */
  validId(media: ProviderMedia, providerId: string): boolean;
  /** This provider's id of the work another service names (an IMDb id at TMDB), or null when it knows none. */
  idFor?(media: ProviderMedia, externalIds: Readonly<Record<string, string>>): Promise<string | null>;
}
