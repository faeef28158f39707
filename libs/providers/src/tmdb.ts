import { ENTRY_LIMITS, IMDB_ID as IMDB_ID_KEY, TMDB_ID as TMDB_ID_KEY, type ProviderMedia } from '@mt/domain';
import { z } from 'zod';
import type { AnswerCache } from './answer-cache';
import type { MetadataProvider, ProviderEpisode, ProviderSearchHit, ProviderSeason, ProviderWork, ReadOptions } from './provider';
import { ProviderHttp, type ProviderHttpOptions } from './provider-http';
import type { TmdbSettings } from './provider-settings';
import { countOrNull, dateOrNull, namesWithin, textOrNull, yearOf } from './provider-values';

/** The poster size the catalog links to (TMDB's `poster_sizes`). */
const POSTER_SIZE = 'w500';
const SEARCH_RESULTS = 20;

const nullableText = z.string().nullish();
const searchAnswer = z.object({
  results: z.array(
    z.object({
      id: z.number().int().positive(),
      title: z.string().optional(),
      name: z.string().optional(),
      release_date: nullableText,
      first_air_date: nullableText,
      overview: nullableText,
      poster_path: nullableText,
    }),
  ),
});
const genres = z.array(z.object({ name: z.string() })).default([]);
const movieAnswer = z.object({
  id: z.number().int().positive(),
  title: z.string().min(1),
  release_date: nullableText,
  overview: nullableText,
  runtime: z.number().int().nullish(),
  poster_path: nullableText,
  genres,
  external_ids: z.object({ imdb_id: nullableText }).default({}),
  credits: z.object({ crew: z.array(z.object({ job: z.string().nullish(), name: z.string() })).default([]) }).default({ crew: [] }),
});
const showAnswer = z.object({
  id: z.number().int().positive(),
  name: z.string().min(1),
  first_air_date: nullableText,
  overview: nullableText,
  poster_path: nullableText,
  genres,
  number_of_seasons: z.number().int().nullish(),
  number_of_episodes: z.number().int().nullish(),
  networks: z.array(z.object({ name: z.string() })).default([]),
  seasons: z.array(z.object({ season_number: z.number().int().min(0) })).default([]),
  external_ids: z.object({ imdb_id: nullableText, tvdb_id: z.number().int().nullish() }).default({}),
});
const findAnswer = z.object({
  movie_results: z.array(z.object({ id: z.number().int().positive() })).default([]),
  tv_results: z.array(z.object({ id: z.number().int().positive() })).default([]),
});
const seasonAnswer = z.object({
  season_number: z.number().int().min(0),
  episodes: z.array(
    z.object({
      id: z.number().int().positive(),
      episode_number: z.number().int().min(0),
      name: nullableText,
      air_date: nullableText,
      runtime: z.number().int().nullish(),
    }),
  ),
});

// The catalog's own id formats: an id it could not store is left out, not guessed.
const TMDB_ID = TMDB_ID_KEY.pattern;
const IMDB_ID = IMDB_ID_KEY.pattern;

/** TMDB's API v3 (developer.themoviedb.org): movies, and series with their seasons and episodes. */
export class TmdbProvider implements MetadataProvider {
  readonly id = 'tmdb' as const;
  readonly imageBaseUrl: string;
  private readonly http: ProviderHttp;

  constructor(
    private readonly settings: TmdbSettings,
    cache: AnswerCache,
    options: Pick<ProviderHttpOptions, 'timeoutMs' | 'retryBackoffMs' | 'fetch'> = {},
  ) {
    this.imageBaseUrl = settings.imageUrl;
    const credential = settings.credential;
    this.http = new ProviderHttp({
      provider: 'tmdb',
      cache,
      ...options,
      ...(credential.kind === 'bearer' ? { headers: { authorization: `Bearer ${credential.token}` } } : { credentialQuery: { api_key: credential.key } }),
    });
  }

  validId(media: ProviderMedia, providerId: string): boolean {
    return media !== 'book' && TMDB_ID.test(providerId);
  }

  async search(media: ProviderMedia, query: { q: string; year?: number }, options: ReadOptions = {}): Promise<ProviderSearchHit[]> {
    const tv = media === 'tv';
    const params = new URLSearchParams({ query: query.q, include_adult: 'false', page: '1' });
    if (query.year !== undefined) params.set(tv ? 'first_air_date_year' : 'year', String(query.year));
    const answer = await this.http.getJson(`${this.settings.apiUrl}/search/${tv ? 'tv' : 'movie'}?${params}`, searchAnswer, options);
    return answer.results.slice(0, SEARCH_RESULTS).flatMap((result) => {
      const title = (tv ? result.name : result.title)?.trim();
      if (!title) return [];
      return [
        {
          provider: 'tmdb' as const,
          provider_id: String(result.id),
          title: title.slice(0, ENTRY_LIMITS.titleMaxLength),
          year: yearOf(tv ? result.first_air_date : result.release_date),
          overview: textOrNull(result.overview),
          poster_url: this.poster(result.poster_path),
          external_ids: { tmdb: String(result.id) },
        },
      ];
    });
  }

  /** TMDB's id of a work named by its IMDb id (the find API: developer.themoviedb.org/reference/find-by-id). */
  async idFor(media: ProviderMedia, externalIds: Readonly<Record<string, string>>): Promise<string | null> {
    const imdb = externalIds['imdb'];
    if (!imdb || !IMDB_ID.test(imdb)) return null;
    const found = await this.http.getJson(`${this.settings.apiUrl}/find/${imdb}?external_source=imdb_id`, findAnswer);
    const match = (media === 'tv' ? found.tv_results : found.movie_results)[0];
    return match ? String(match.id) : null;
  }

  async fetchWork(media: ProviderMedia, providerId: string, options: ReadOptions = {}): Promise<ProviderWork> {
    return media === 'tv' ? this.fetchShow(providerId, options) : this.fetchMovie(providerId, options);
  }

  async seasons(providerId: string, options: ReadOptions = {}): Promise<ProviderSeason[]> {
    const show = await this.http.getJson(this.showUrl(providerId), showAnswer, options);
    const numbers = [...new Set(show.seasons.map((season) => season.season_number))].sort((a, b) => a - b);
    const seasons: ProviderSeason[] = [];
    // One season at a time: a long-running show's dozens of seasons must not burst the provider's rate limit.
    for (const number of numbers) {
      const season = await this.http.getJson(`${this.settings.apiUrl}/tv/${providerId}/season/${number}`, seasonAnswer, options);
      const episodes = new Map<number, ProviderEpisode>();
      for (const episode of season.episodes) {
        if (episode.episode_number < 1) continue;
        episodes.set(episode.episode_number, {
          number: episode.episode_number,
          title: textOrNull(episode.name, 300),
          air_date: dateOrNull(episode.air_date),
          runtime_minutes: countOrNull(episode.runtime, 10000),
          external_ids: { tmdb: String(episode.id) },
        });
      }
      seasons.push({ number, episodes: [...episodes.values()].sort((a, b) => a.number - b.number) });
    }
    return seasons;
  }

  private async fetchMovie(providerId: string, options: ReadOptions): Promise<ProviderWork> {
    const movie = await this.http.getJson(`${this.settings.apiUrl}/movie/${providerId}?append_to_response=external_ids,credits`, movieAnswer, options);
    const imdb = movie.external_ids.imdb_id;
    return {
      provider: 'tmdb',
      provider_id: String(movie.id),
      title: textOrNull(movie.title, ENTRY_LIMITS.titleMaxLength) ?? String(movie.id),
      year: yearOf(movie.release_date),
      description: textOrNull(movie.overview),
      genres: namesWithin(movie.genres.map((genre) => genre.name), 20, 50),
      poster_url: this.poster(movie.poster_path),
      external_ids: { tmdb: String(movie.id), ...(imdb && IMDB_ID.test(imdb) ? { imdb } : {}) },
      fields: {
        runtime_minutes: countOrNull(movie.runtime, 10000),
        director: textOrNull(movie.credits.crew.find((member) => member.job === 'Director')?.name, 200),
      },
    };
  }

  private async fetchShow(providerId: string, options: ReadOptions): Promise<ProviderWork> {
    const show = await this.http.getJson(this.showUrl(providerId), showAnswer, options);
    const imdb = show.external_ids.imdb_id;
    const tvdb = show.external_ids.tvdb_id;
    return {
      provider: 'tmdb',
      provider_id: String(show.id),
      title: textOrNull(show.name, ENTRY_LIMITS.titleMaxLength) ?? String(show.id),
      year: yearOf(show.first_air_date),
      description: textOrNull(show.overview),
      genres: namesWithin(show.genres.map((genre) => genre.name), 20, 50),
      poster_url: this.poster(show.poster_path),
      external_ids: { tmdb: String(show.id), ...(imdb && IMDB_ID.test(imdb) ? { imdb } : {}), ...(tvdb && tvdb > 0 ? { tvdb: String(tvdb) } : {}) },
      fields: {
        seasons: countOrNull(show.number_of_seasons, 1000),
        episodes: countOrNull(show.number_of_episodes, 100000),
        network: textOrNull(show.networks[0]?.name, 200),
      },
    };
  }

  private showUrl(providerId: string): string {
    return `${this.settings.apiUrl}/tv/${providerId}?append_to_response=external_ids`;
  }

  private poster(path: string | null | undefined): string | null {
    return path && /^\/[A-Za-z0-9_-]+\.(?:jpg|jpeg|png|webp)$/.test(path) ? `${this.imageBaseUrl}/${POSTER_SIZE}${path}` : null;
  }
}
