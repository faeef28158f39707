/**
 * The image hosts the gateway serves from: the providers library's own reading of the provider variables, so
 * the catalog's `poster` paths and this route name the same hosts.
 */
export { DEFAULT_OPENLIBRARY_COVERS_URL, DEFAULT_TMDB_IMAGE_URL, imageSources, type ImageSources } from '@mt/providers';

/** The providers whose images the gateway serves, by the name in `/api/v1/images/<provider>/…`. */
export type { ProviderId as ImageProvider } from '@mt/providers';
