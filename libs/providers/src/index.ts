export * from './provider';
export * from './provider-settings';
export * from './image-sources';
export * from './answer-cache';
export { ProviderNotFoundError, PROVIDER_TIMEOUT_MS } from './provider-http';
export { TmdbProvider } from './tmdb';
export { OpenLibraryProvider } from './openlibrary';
export * from './providers';
