export * from './types';
export type { CategoryPaths } from './category-paths';
export type { paths, components, operations } from './generated/schema';
export { ApiError, ApiNetworkError, isApiError, parseRetryAfter, type ApiErrorCode, type ApiErrorDetail } from './api-error';
export { createTransport, waitRetryAfter, type RateLimited, type RateLimitHook, type WaitRetryAfterOptions } from './transport';
export {
  allPages,
  ApiClient,
  MAX_BULK_IDS,
  type ApiClientOptions,
  type CatalogEntryCreate,
  type ImportUpload,
  type ListQuery,
  type ProviderSearchQuery,
  type SearchQuery,
  type TokenProvider,
} from './client';
