import type { components, paths } from './generated/schema';

/** Every schema of the served document, by its component name. */
export type Schemas = components['schemas'];

/** The error payload of every component (docs/api.md "Errors"). */
export type ErrorPayload = Schemas['Error'];
export type ErrorCode = ErrorPayload['code'];

export type User = Schemas['User'];
export type RegisterRequest = Schemas['RegisterRequest'];
export type LoginRequest = Schemas['LoginRequest'];
export type LoginResponse = Schemas['LoginResponse'];
export type Scope = Schemas['Scope'];
export type TokenMetadata = Schemas['TokenMetadata'];
export type CreateTokenRequest = Schemas['CreateTokenRequest'];
export type CreatedToken = Schemas['CreatedToken'];
export type Message = Schemas['Message'];
/** Scrobbling (docs/api.md "Scrobbling from media servers"). */
export type ScrobbleHook = Schemas['ScrobbleHook'];
export type CreatedScrobbleHook = Schemas['CreatedScrobbleHook'];
export type CreateScrobbleHookRequest = Schemas['CreateScrobbleHookRequest'];
export type ScrobbleInboxEntry = Schemas['ScrobbleInboxEntry'];
export type ResolveScrobbleInboxResult = Schemas['ResolveScrobbleInboxResult'];
export type Category = Schemas['Category'];
/** Every category at once (docs/api.md "Your home and one search"). */
export type Home = Schemas['Home'];
export type HomeEntry = Schemas['HomeEntry'];
export type WorkSummary = Schemas['WorkSummary'];
export type SearchResults = Schemas['SearchResults'];
export type SearchHit = Schemas['SearchHit'];
/** Metadata providers (docs/api.md "Metadata providers and posters"). */
export type ProviderHit = Schemas['ProviderHit'];
export type ProviderSearch = Schemas['ProviderSearch'];
export type ProviderImport = Schemas['ProviderImport'];

/** The fields every category's catalog entries share; a category adds its own (`director`, `isbn`...). */
export type CatalogEntry = Schemas['CatalogEntry'] & { readonly [field: string]: unknown };
export type ListEntry = Schemas['ListEntry'];
export type ListStatus = ListEntry['status'];
export type ListEntryCreate = Schemas['ListEntryCreate'];
export type ListEntryPatch = Schemas['ListEntryPatch'];
export type ListEntryPage = Schemas['ListEntryPage'];
export type BulkStatusRequest = Schemas['BulkStatusRequest'];
export type BulkStatusResult = Schemas['BulkStatusResult'];
export type BulkDeleteRequest = Schemas['BulkDeleteRequest'];
export type BulkDeleteResult = Schemas['BulkDeleteResult'];

/** The change feed (docs/api.md "Your list in a category"). */
export type ListChangesPage = Schemas['ListChangesPage'];
export type ListChange = ListChangesPage['changes'][number];
export type ListEntryHistory = Schemas['ListEntryHistory'];
export type ListEntryHistoryEvent = Schemas['ListEntryHistoryEvent'];
/** Statistics of a list (docs/api.md "Your list in a category"). */
export type ListStats = Schemas['ListStats'];
/** Export and import (docs/api.md "Your list in a category"). */
export type ExportFormat = 'json' | 'csv';
export type ImportJob = Schemas['ImportJob'];
export type ImportJobPage = Schemas['ImportJobPage'];
export type ImportMode = ImportJob['mode'];
export type ImportStatus = ImportJob['status'];
/** Episodes, plays and rewatches (docs/api.md "Episodes, plays and rewatches"). */
export type Play = Schemas['Play'];
export type PlaysRequest = Schemas['AddPlays'];
export type PlaysAdded = Schemas['PlaysAdded'];
export type PlaysPage = Schemas['PlaysPage'];
export type DiaryPage = Schemas['DiaryPage'];
export type DiaryPlay = DiaryPage['data'][number];
export type ShowProgress = Schemas['ShowProgress'];
export type UpNextPage = Schemas['UpNextPage'];
export type UpNextItem = UpNextPage['data'][number];
export type Episode = Schemas['Episode'];
export type SeasonRequest = Schemas['PutSeason'];
/** Moderation and roles (docs/api.md "The catalog of a category"). */
export type EntryRemoval = Schemas['EntryRemoval'];
export type Role = User['role'];
export type AssignableRole = Schemas['RoleRequest']['role'];

/** The page object of every paged endpoint (docs/api.md "Conventions"). */
export interface Page<T> {
  data: T[];
  page: number;
  limit: number;
  total: number;
  total_pages: number;
}

/**
 * The categories the document served when the types were generated (`books` | `movies` | `tvshows`), read off
 * its `/api/v1/<category>/list` paths. Categories are dynamic: the helpers take any category name.
 */
export type KnownCategory = keyof paths extends infer Path
  ? Path extends `/api/v1/${infer Category}/list`
    ? Category
    : never
  : never;
