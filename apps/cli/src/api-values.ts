import { LIST_STATUSES as DOMAIN_LIST_STATUSES, MEDIA_CATEGORY_IDS } from '@mt/domain';
import type { AssignableRole, CategoryPaths, ExportFormat, ImportMode, KnownCategory, ListQuery, ListStatus, Scope, SearchQuery } from '@mt/api-client';

/**
 * The values the API accepts, as run-time lists for option choices and completion (the domain's from
 * @mt/domain). Each list must name exactly the members of the generated type: when a regenerated client adds or drops one, this file stops
 * compiling until the list follows.
 */
export const exactly =
  <T>() =>
  <const U extends readonly T[]>(values: U & ([Exclude<T, U[number]>] extends [never] ? unknown : never)): U =>
    values;

export const LIST_STATUSES = exactly<ListStatus>()(DOMAIN_LIST_STATUSES);
export const SCOPES = exactly<Scope>()(['profile:read', 'catalog:write', 'list:read', 'list:write', 'account', 'catalog:moderate']);
export const LIST_SORTS = exactly<NonNullable<ListQuery['sort']>>()(['updated_at', 'created_at', 'title', 'score']);
export const SEARCH_SORTS = exactly<NonNullable<SearchQuery['sort']>>()(['relevance', 'title', 'year', 'created_at', 'updated_at']);
/** The categories the client was generated with: offered by completion when the server cannot be asked. */
export const SHIPPED_CATEGORIES = exactly<KnownCategory>()(MEDIA_CATEGORY_IDS);
export const ORDERS = exactly<NonNullable<ListQuery['order']>>()(['asc', 'desc']);

/** Page size of the paged endpoints (docs/api.md "Limits"). */
export const MAX_PAGE_LIMIT = 100;

type ImportSource = NonNullable<CategoryPaths['/api/v1/{category}/list/imports']['post']['parameters']['query']>['source'];
/** The import sources of the API (docs/api.md "Your list in a category") and the media type each is written in (the upload's Content-Type). */
export const IMPORT_SOURCE_TYPES: Readonly<Record<ImportSource, 'text/csv' | 'application/json'>> = {
  'media-tracker': 'application/json',
  csv: 'text/csv',
  letterboxd: 'text/csv',
  trakt: 'application/json',
  imdb: 'text/csv',
  goodreads: 'text/csv',
  storygraph: 'text/csv',
};
export const IMPORT_SOURCES = Object.keys(IMPORT_SOURCE_TYPES) as ImportSource[];
export const IMPORT_MODES = exactly<ImportMode>()(['skip_existing', 'overwrite']);
export const EXPORT_FORMATS = exactly<ExportFormat>()(['json', 'csv']);
export const ASSIGNABLE_ROLES = exactly<AssignableRole>()(['user', 'moderator']);
