import createClient, { type Client } from 'openapi-fetch';
import { ApiError } from './api-error';
import type { CategoryPaths } from './category-paths';
import type { paths } from './generated/schema';
import { createTransport, type RateLimitHook } from './transport';
import type {
  BulkDeleteResult,
  BulkStatusResult,
  CatalogEntry,
  Category,
  Home,
  SearchResults,
  CreatedToken,
  CreateTokenRequest,
  EntryRemoval,
  ExportFormat,
  ImportJob,
  ImportJobPage,
  ImportMode,
  ListEntry,
  ListChangesPage,
  ListEntryCreate,
  ListEntryHistory,
  ListEntryPage,
  ListEntryPatch,
  ListStats,
  ListStatus,
  DiaryPage,
  DiaryPlay,
  Episode,
  PlaysAdded,
  PlaysPage,
  PlaysRequest,
  SeasonRequest,
  ShowProgress,
  UpNextPage,
  LoginRequest,
  LoginResponse,
  Message,
  ProviderImport,
  ProviderSearch,
  Page,
  RegisterRequest,
  TokenMetadata,
  AssignableRole,
  CreatedScrobbleHook,
  CreateScrobbleHookRequest,
  ResolveScrobbleInboxResult,
  ScrobbleHook,
  ScrobbleInboxEntry,
  User,
} from './types';

/** The credential to send, asked for before every request (a token that was refreshed or revoked is seen at once). */
export type TokenProvider = string | undefined | (() => string | undefined | Promise<string | undefined>);

export interface ApiClientOptions {
  /** The gateway's base URL (`https://media.example.com`); empty for the page's own origin in a browser. */
  baseUrl: string;
  /** Bearer credential (a PAT or a JWT); requests go without one when it gives nothing. */
  token?: TokenProvider;
  /** Called on every 429 (see waitRetryAfter); without it a 429 is an ApiError with `retryAfterSeconds`. */
  onRateLimited?: RateLimitHook;
  /** Deadline of each attempt in milliseconds; default none. */
  timeoutMs?: number;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /** Another fetch (a test's, a polyfill); default the global one. */
  fetch?: typeof fetch;
}

/** Query of the catalog search (GET /api/v1/{category}), as the served document declares it. */
export type SearchQuery = NonNullable<CategoryPaths['/api/v1/{category}']['get']['parameters']['query']>;
/** A search of a category's metadata providers: `q`, `year`, `provider`. */
export type ProviderSearchQuery = CategoryPaths['/api/v1/{category}/providers/search']['get']['parameters']['query'];
/** Query of a personal list (GET /api/v1/{category}/list). */
export type ListQuery = NonNullable<CategoryPaths['/api/v1/{category}/list']['get']['parameters']['query']>;
/** Body of a new catalog entry: the shared fields, and the category's own by name. */
export type CatalogEntryCreate = { title: string; year?: number | null } & Record<string, unknown>;

export interface ApiClient {
  readonly baseUrl: string;
  /** openapi-fetch over every path of the document, typed per category (`/api/v1/movies/list`). */
  readonly http: Client<paths>;
  /** openapi-fetch over the category-generic paths (`/api/v1/{category}/list`, `params.path.category`). */
  readonly categoryHttp: Client<CategoryPaths>;

  categories(): Promise<Category[]>;
  /** The caller's home across every category (`GET /api/v1/home`). */
  home(): Promise<Home>;
  /** One search over every category (`GET /api/v1/search`), grouped by category. */
  searchEverything(q: string, limit?: number): Promise<SearchResults>;
  register(body: RegisterRequest): Promise<User>;
  login(body: LoginRequest): Promise<LoginResponse>;
  me(): Promise<User>;
  listTokens(): Promise<TokenMetadata[]>;
  createToken(body: CreateTokenRequest): Promise<CreatedToken>;
  revokeToken(id: string): Promise<Message>;
  listScrobbleHooks(): Promise<ScrobbleHook[]>;
  /** The hook, with its `url` holding the secret: shown only in this answer. */
  createScrobbleHook(body: CreateScrobbleHookRequest): Promise<CreatedScrobbleHook>;
  deleteScrobbleHook(id: string): Promise<Message>;
  listScrobbleInbox(): Promise<ScrobbleInboxEntry[]>;
  resolveScrobbleInbox(id: string, itemId: string): Promise<ResolveScrobbleInboxResult>;
  dismissScrobbleInbox(id: string): Promise<Message>;

  searchEntries(category: string, query?: SearchQuery): Promise<Page<CatalogEntry>>;
  getEntry(category: string, id: string): Promise<CatalogEntry>;
  createEntry(category: string, body: CatalogEntryCreate): Promise<CatalogEntry>;
  updateEntry(category: string, id: string, patch: Record<string, unknown>): Promise<CatalogEntry>;

  listEntries(category: string, query?: ListQuery): Promise<ListEntryPage>;
  /** Every entry of the list matching `query`, page after page (following `next_cursor` when the server gives one). */
  allListEntries(category: string, query?: Omit<ListQuery, 'page'>): AsyncGenerator<ListEntry, void, undefined>;
  getListEntry(category: string, itemId: string): Promise<ListEntry>;
  addListEntry(category: string, body: ListEntryCreate): Promise<ListEntry>;
  updateListEntry(category: string, itemId: string, patch: ListEntryPatch): Promise<ListEntry>;
  removeListEntry(category: string, itemId: string): Promise<Message>;
  /** One bulk request: at most 500 distinct ids (the API's limit; see MAX_BULK_IDS). */
  bulkUpdateStatus(category: string, itemIds: string[], status: ListStatus): Promise<BulkStatusResult>;
  bulkRemoveListEntries(category: string, itemIds: string[]): Promise<BulkDeleteResult>;

  /** One page of the change feed (docs/api.md "Your list in a category"); without `since`, from the start of the retained history. */
  listChanges(category: string, query?: { since?: string; limit?: number }): Promise<ListChangesPage>;
  listEntryHistory(category: string, itemId: string): Promise<ListEntryHistory>;
  listStats(category: string): Promise<ListStats>;
  /** Plays (docs/api.md "Episodes, plays and rewatches"): record, list, remove; the diary across a category. */
  recordPlays(category: string, itemId: string, body: PlaysRequest): Promise<PlaysAdded>;
  listPlays(category: string, itemId: string, query?: { cursor?: string; limit?: number }): Promise<PlaysPage>;
  deletePlay(category: string, itemId: string, playId: string): Promise<Message>;
  diary(category: string, query?: { from?: string; to?: string; cursor?: string; limit?: number }): Promise<DiaryPage>;
  /** Every play of the diary: follows `next_cursor` to the end. */
  allDiary(category: string, query?: { from?: string; to?: string; limit?: number }): AsyncGenerator<DiaryPlay, void, undefined>;
  /** A show's progress and up next (tvshows). */
  showProgress(itemId: string): Promise<ShowProgress>;
  upNext(query?: { cursor?: string; limit?: number }): Promise<UpNextPage>;
  /** Replaces one season's episodes of a show (its creator, or a moderator). */
  replaceSeason(showId: string, season: number, body: SeasonRequest): Promise<Episode[]>;
  /** The export file as it arrives (docs/api.md "Your list in a category"): the body is never read into memory here. */
  exportList(category: string, format?: ExportFormat): Promise<{ body: ReadableStream<Uint8Array>; contentType: string; fileName: string | undefined }>;
  /** Uploads a file to import (its content type must be the one the source is written in); the queued job. */
  startImport(category: string, file: ImportUpload): Promise<ImportJob>;
  getImport(category: string, id: string): Promise<ImportJob>;
  listImports(category: string, query?: { page?: number; cursor?: string; limit?: number }): Promise<ImportJobPage>;
  /** Every import job of the list, newest first, following `next_cursor`. */
  allImports(category: string, query?: { limit?: number }): AsyncGenerator<ImportJob, void, undefined>;
  /** Moderators (docs/api.md "The catalog of a category"): removes a catalog entry and every list entry pointing at it. */
  deleteEntry(category: string, id: string): Promise<EntryRemoval>;
  /** Moderators: folds `id` into `into`; the surviving entry. */
  mergeEntry(category: string, id: string, into: string): Promise<CatalogEntry>;
  /** Admins: grants or removes the moderator role. */
  setUserRole(userId: string, role: AssignableRole): Promise<User>;

  /** The category's metadata providers (docs/api.md "Metadata providers and posters"): works found, each with `existing_id`. */
  searchProviders(category: string, query: ProviderSearchQuery): Promise<ProviderSearch>;
  /** A new catalog entry from a provider's work (409 with `existingId` when the catalog has it). */
  importFromProvider(category: string, body: ProviderImport): Promise<CatalogEntry>;
  /** Re-reads an entry from its provider (its creator, or a moderator). */
  refreshEntry(category: string, id: string): Promise<CatalogEntry>;
}

/** A file to import: its bytes, their media type, the import's source and options. */
export interface ImportUpload {
  body: string | Uint8Array;
  contentType: 'text/csv' | 'application/json';
  source: string;
  mode?: ImportMode;
  dryRun?: boolean;
  /** The file's name (Letterboxd's watched.csv and watchlist.csv share a header: the name tells them apart). */
  fileName?: string;
}

/** The API's bulk limit (docs/api.md "Limits"). */
export const MAX_BULK_IDS = 500;

/** A category name as the API declares it; anything else would change the path, so it is refused here. */
const CATEGORY_NAME = /^[a-z][a-z0-9-]{0,31}$/;

interface FetchResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The data of a 2xx answer, or the ApiError of any other. */
async function unwrap<T>(pending: Promise<FetchResult<T>>): Promise<T> {
  const { data, error, response } = await pending;
  if (!response.ok) throw ApiError.fromResponse(response, error);
  return data as T;
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const clientOptions = {
    baseUrl,
    headers: options.headers,
    fetch: createTransport({ fetch: options.fetch, onRateLimited: options.onRateLimited, timeoutMs: options.timeoutMs }),
  };
  const http = createClient<paths>(clientOptions);
  const categoryHttp = createClient<CategoryPaths>(clientOptions);
  const bearer = {
    async onRequest({ request }: { request: Request }) {
      const token = typeof options.token === 'function' ? await options.token() : options.token;
      if (token && !request.headers.has('authorization')) request.headers.set('authorization', `Bearer ${token}`);
      return request;
    },
  };
  http.use(bearer);
  categoryHttp.use(bearer);

  const category = (name: string) => {
    if (!CATEGORY_NAME.test(name)) throw new TypeError(`not a category name: ${JSON.stringify(name)}`);
    return { category: name };
  };

  const client: ApiClient = {
    baseUrl,
    http,
    categoryHttp,

    categories: () => unwrap(http.GET('/api/v1/categories')),
    home: () => unwrap(http.GET('/api/v1/home')),
    searchEverything: (q, limit) => unwrap(http.GET('/api/v1/search', { params: { query: { q, ...(limit ? { limit } : {}) } } })),
    register: (body) => unwrap(http.POST('/api/v1/auth/register', { body })),
    login: (body) => unwrap(http.POST('/api/v1/auth/login', { body })),
    me: () => unwrap(http.GET('/api/v1/auth/me')),
    listTokens: () => unwrap(http.GET('/api/v1/auth/tokens')),
    createToken: (body) => unwrap(http.POST('/api/v1/auth/tokens', { body })),
    revokeToken: (id) => unwrap(http.DELETE('/api/v1/auth/tokens/{id}', { params: { path: { id } } })),
    listScrobbleHooks: () => unwrap(http.GET('/api/v1/scrobble/hooks')),
    createScrobbleHook: (body) => unwrap(http.POST('/api/v1/scrobble/hooks', { body })),
    deleteScrobbleHook: (id) => unwrap(http.DELETE('/api/v1/scrobble/hooks/{id}', { params: { path: { id } } })),
    listScrobbleInbox: () => unwrap(http.GET('/api/v1/scrobble/unmatched')),
    resolveScrobbleInbox: (id, itemId) => unwrap(http.POST('/api/v1/scrobble/unmatched/{id}/resolve', { params: { path: { id } }, body: { item_id: itemId } })),
    dismissScrobbleInbox: (id) => unwrap(http.DELETE('/api/v1/scrobble/unmatched/{id}', { params: { path: { id } } })),

    searchEntries: (name, query = {}) =>
      unwrap<Page<CatalogEntry>>(categoryHttp.GET('/api/v1/{category}', { params: { path: category(name), query } })),
    getEntry: (name, id) =>
      unwrap<CatalogEntry>(categoryHttp.GET('/api/v1/{category}/{id}', { params: { path: { ...category(name), id } } })),
    createEntry: (name, body) =>
      unwrap<CatalogEntry>(
        categoryHttp.POST('/api/v1/{category}', {
          params: { path: category(name) },
          // The category's own fields are checked by the server against that category's schema.
          body: body as never,
        }),
      ),
    updateEntry: (name, id, patch) =>
      unwrap<CatalogEntry>(
        categoryHttp.PATCH('/api/v1/{category}/{id}', { params: { path: { ...category(name), id } }, body: patch as never }),
      ),

    listEntries: (name, query = {}) =>
      unwrap<ListEntryPage>(categoryHttp.GET('/api/v1/{category}/list', { params: { path: category(name), query } })),
    allListEntries: (name, query = {}) => allPages((extra) => client.listEntries(name, { ...query, ...extra })),
    getListEntry: (name, itemId) =>
      unwrap<ListEntry>(
        categoryHttp.GET('/api/v1/{category}/list/{item_id}', { params: { path: { ...category(name), item_id: itemId } } }),
      ),
    addListEntry: (name, body) =>
      unwrap<ListEntry>(categoryHttp.POST('/api/v1/{category}/list', { params: { path: category(name) }, body })),
    updateListEntry: (name, itemId, patch) =>
      unwrap<ListEntry>(
        categoryHttp.PATCH('/api/v1/{category}/list/{item_id}', {
          params: { path: { ...category(name), item_id: itemId } },
          body: patch,
        }),
      ),
    removeListEntry: (name, itemId) =>
      unwrap<Message>(
        categoryHttp.DELETE('/api/v1/{category}/list/{item_id}', { params: { path: { ...category(name), item_id: itemId } } }),
      ),
    bulkUpdateStatus: (name, itemIds, status) =>
      unwrap<BulkStatusResult>(
        categoryHttp.POST('/api/v1/{category}/bulk-status', { params: { path: category(name) }, body: { item_ids: itemIds, status } }),
      ),
    bulkRemoveListEntries: (name, itemIds) =>
      unwrap<BulkDeleteResult>(
        categoryHttp.POST('/api/v1/{category}/bulk-delete', { params: { path: category(name) }, body: { item_ids: itemIds } }),
      ),

    listChanges: (name, query = {}) =>
      unwrap<ListChangesPage>(categoryHttp.GET('/api/v1/{category}/list/changes', { params: { path: category(name), query } })),
    listEntryHistory: (name, itemId) =>
      unwrap<ListEntryHistory>(
        categoryHttp.GET('/api/v1/{category}/list/{item_id}/history', { params: { path: { ...category(name), item_id: itemId } } }),
      ),
    listStats: (name) => unwrap<ListStats>(categoryHttp.GET('/api/v1/{category}/list/stats', { params: { path: category(name) } })),
    recordPlays: (name, itemId, body) =>
      unwrap<PlaysAdded>(
        categoryHttp.POST('/api/v1/{category}/list/{item_id}/plays', { params: { path: { ...category(name), item_id: itemId } }, body }),
      ),
    listPlays: (name, itemId, query = {}) =>
      unwrap<PlaysPage>(
        categoryHttp.GET('/api/v1/{category}/list/{item_id}/plays', { params: { path: { ...category(name), item_id: itemId }, query } }),
      ),
    deletePlay: (name, itemId, playId) =>
      unwrap<Message>(
        categoryHttp.DELETE('/api/v1/{category}/list/{item_id}/plays/{play_id}', {
          params: { path: { ...category(name), item_id: itemId, play_id: playId } },
        }),
      ),
    diary: (name, query = {}) =>
      unwrap<DiaryPage>(categoryHttp.GET('/api/v1/{category}/list/plays', { params: { path: category(name), query } })),
    allDiary: async function* (name, query = {}) {
      let cursor: string | undefined;
      for (;;) {
        const page = await client.diary(name, { ...query, cursor });
        yield* page.data;
        if (!page.next_cursor) return;
        cursor = page.next_cursor;
      }
    },
    showProgress: (itemId) =>
      unwrap<ShowProgress>(http.GET('/api/v1/tvshows/list/{item_id}/progress', { params: { path: { item_id: itemId } } })),
    upNext: (query = {}) => unwrap<UpNextPage>(http.GET('/api/v1/tvshows/list/up-next', { params: { query } })),
    replaceSeason: (showId, season, body) =>
      unwrap<Episode[]>(http.PUT('/api/v1/tvshows/{id}/seasons/{season}', { params: { path: { id: showId, season } }, body })),
    exportList: async (name, format = 'json') => {
      const { data, error, response } = await categoryHttp.GET('/api/v1/{category}/list/export', {
        params: { path: category(name), query: { format } },
        parseAs: 'stream',
      });
      if (!response.ok || !data) throw ApiError.fromResponse(response, error);
      const disposition = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '');
      return { body: data as ReadableStream<Uint8Array>, contentType: response.headers.get('content-type') ?? '', fileName: disposition?.[1] };
    },
    startImport: (name, file) =>
      unwrap<ImportJob>(
        categoryHttp.POST('/api/v1/{category}/list/imports', {
          params: {
            path: category(name),
            query: { source: file.source, mode: file.mode, dry_run: file.dryRun, file: file.fileName } as never,
          },
          body: file.body as never,
          // The file goes as it is, in the media type its source is written in.
          bodySerializer: (body: unknown) => body as string,
          headers: { 'Content-Type': file.contentType },
        }),
      ),
    getImport: (name, id) =>
      unwrap<ImportJob>(categoryHttp.GET('/api/v1/{category}/list/imports/{id}', { params: { path: { ...category(name), id } } })),
    listImports: (name, query = {}) =>
      unwrap<ImportJobPage>(categoryHttp.GET('/api/v1/{category}/list/imports', { params: { path: category(name), query } })),
    allImports: (name, query = {}) => allPages((extra) => client.listImports(name, { ...query, ...extra })),
    deleteEntry: (name, id) =>
      unwrap<EntryRemoval>(categoryHttp.DELETE('/api/v1/{category}/{id}', { params: { path: { ...category(name), id } } })),
    mergeEntry: (name, id, into) =>
      unwrap<CatalogEntry>(
        categoryHttp.POST('/api/v1/{category}/{id}/merge', { params: { path: { ...category(name), id } }, body: { into } }),
      ),
    setUserRole: (userId, role) =>
      unwrap(http.PUT('/api/v1/auth/users/{id}/role', { params: { path: { id: userId } }, body: { role } })),
    searchProviders: (name, query) =>
      unwrap<ProviderSearch>(categoryHttp.GET('/api/v1/{category}/providers/search', { params: { path: category(name), query } })),
    importFromProvider: (name, body) =>
      unwrap<CatalogEntry>(categoryHttp.POST('/api/v1/{category}/providers/import', { params: { path: category(name) }, body })),
    refreshEntry: (name, id) =>
      unwrap<CatalogEntry>(categoryHttp.POST('/api/v1/{category}/{id}/refresh', { params: { path: { ...category(name), id } } })),
  };
  return client;
}

/** A page that may carry the cursor of the next one (docs/api.md "Conventions", once the server has it). */
type PageWithCursor<T> = Page<T> & { next_cursor?: string | null };

/**
 * Every item of a paged listing. Offset pages until the server sends `next_cursor`; from then on its cursors,
 * which see an entry changed while paging at most once. Items already seen (offset pages shift when the
 * list changes underneath) are not yielded twice.
 */
export async function* allPages<T extends { item_id: string } | { id: string }>(
  fetchPage: (position: { page?: number; cursor?: string }) => Promise<PageWithCursor<T>>,
): AsyncGenerator<T, void, undefined> {
  const seen = new Set<string>();
  let position: { page?: number; cursor?: string } = { page: 1 };
  for (;;) {
    const page = await fetchPage(position as never);
    for (const item of page.data) {
      const key = 'item_id' in item ? item.item_id : item.id;
      if (seen.has(key)) continue;
      seen.add(key);
      yield item;
    }
    if (typeof page.next_cursor === 'string') position = { cursor: page.next_cursor };
    else if (page.next_cursor === null || page.data.length === 0 || page.page >= page.total_pages) return;
    else position = { page: page.page + 1 };
  }
}
