import { providerSettings, type ProviderSettings, type ProvidersEnv } from './provider-settings';
import type { ProviderId } from './provider';

/** The image base URL of each enabled provider: the only hosts the API's image route fetches from. */
export type ImageSources = Partial<Record<ProviderId, string>>;

/** Pure: the same environment always gives the same sources (the gateway's image route and the catalog share it). */
export function imageSources(env: ProvidersEnv | NodeJS.ProcessEnv): ImageSources {
  return imageSourcesOf(providerSettings(env));
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
