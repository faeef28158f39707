import { PROVIDER_DEFAULT_URLS, type ProviderSettings } from './provider-settings';
import type { ProviderId } from './provider';

/** The image base URL of each enabled provider: the only hosts the API's image route fetches from. */
export type ImageSources = Partial<Record<ProviderId, string>>;

export const DEFAULT_TMDB_IMAGE_URL = PROVIDER_DEFAULT_URLS.TMDB_IMAGE_URL;
export const DEFAULT_OPENLIBRARY_COVERS_URL = PROVIDER_DEFAULT_URLS.OPENLIBRARY_COVERS_URL;

type Env = Readonly<Record<string, string | undefined>>;
const present = (value: string | undefined) => (value ?? '').trim() !== '';
const base = (value: string | undefined, fallback: string) => ((value ?? '').trim() || fallback).replace(/\/+$/, '');

/**
 * Which image hosts are enabled, from the variables that enable the providers: TMDB when it has a credential,
 * Open Library unless OPENLIBRARY_ENABLED is false. Pure, and lenient (the services validate the variables at
 * start-up): the gateway's image route and the catalog's `poster` paths read the same hosts from it.
 */
export function imageSources(env: Env): ImageSources {
  const sources: ImageSources = {};
  if (present(env['TMDB_API_KEY']) || present(env['TMDB_READ_TOKEN'])) sources.tmdb = base(env['TMDB_IMAGE_URL'], DEFAULT_TMDB_IMAGE_URL);
  if (env['OPENLIBRARY_ENABLED']?.trim().toLowerCase() !== 'false') sources.openlibrary = base(env['OPENLIBRARY_COVERS_URL'], DEFAULT_OPENLIBRARY_COVERS_URL);
  return sources;
}

/** The image sources of settings already read. */
export function imageSourcesOf(settings: ProviderSettings): ImageSources {
  const sources: ImageSources = {};
  if (settings.tmdb) sources.tmdb = settings.tmdb.imageUrl;
  if (settings.openlibrary) sources.openlibrary = settings.openlibrary.coversUrl;
  return sources;
}

/** Image paths are plain segments of letters, digits, dots, dashes and underscores: nothing to traverse or re-encode. */
const IMAGE_PATH = /^(?:[A-Za-z0-9_-][A-Za-z0-9._-]*\/)*[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

/**
 * This API's image path of a poster (`/api/v1/images/<provider>/<path>`), or null when the URL is not under an
 * enabled provider's image base or its path is not a plain one.
 */
export function posterPath(posterUrl: string | null | undefined, sources: ImageSources): string | null {
  if (!posterUrl) return null;
  for (const [provider, base] of Object.entries(sources)) {
    if (!base || !posterUrl.startsWith(`${base}/`)) continue;
    const rest = posterUrl.slice(base.length + 1);
    if (!IMAGE_PATH.test(rest) || rest.split('/').some((segment) => segment === '..' || segment === '.')) return null;
    return `/api/v1/images/${provider}/${rest}`;
  }
  return null;
}
