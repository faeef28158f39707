/** The providers whose images the gateway serves, by the name in `/api/v1/images/<provider>/…`. */
export type ImageProvider = 'tmdb' | 'openlibrary';

/** Each enabled provider's image host: the base URL its image paths are appended to. */
export type ImageSources = Partial<Record<ImageProvider, string>>;

export const DEFAULT_TMDB_IMAGE_URL = 'https://image.tmdb.org/t/p';
export const DEFAULT_OPENLIBRARY_COVERS_URL = 'https://covers.openlibrary.org';

type Env = Readonly<Record<string, string | undefined>>;

const present = (value: string | undefined) => (value ?? '').trim() !== '';
// Image paths are appended after a slash, so a trailing one would double up.
const base = (value: string | undefined, fallback: string) => ((value ?? '').trim() || fallback).replace(/\/+$/, '');

/**
 * Which image hosts are enabled, from the same variables that configure the metadata providers: TMDB when it
 * has credentials (its images are only shown for works it described), Open Library unless switched off
 * (it needs no key). Pure: the environment is passed in.
 */
export function imageSources(env: Env): ImageSources {
  const sources: ImageSources = {};
  if (present(env['TMDB_API_KEY']) || present(env['TMDB_READ_TOKEN'])) sources.tmdb = base(env['TMDB_IMAGE_URL'], DEFAULT_TMDB_IMAGE_URL);
  if (env['OPENLIBRARY_ENABLED']?.trim().toLowerCase() !== 'false')
    sources.openlibrary = base(env['OPENLIBRARY_COVERS_URL'], DEFAULT_OPENLIBRARY_COVERS_URL);
  return sources;
}
