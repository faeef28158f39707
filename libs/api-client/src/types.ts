import type { components, paths } from './generated/schema';

/** Every schema of the served document, by its component name. */
export type Schemas = components['schemas'];

/** The error payload of every component (API.md §1.1). */
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
export type Category = Schemas['Category'];

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

/** The page object of every paged endpoint (API.md §5). */
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
