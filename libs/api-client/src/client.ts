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

/** The path parameter of a category; a name the API could not have declared is refused before any request. */
function categoryPath(name: string): { category: string } {
  if (!CATEGORY_NAME.test(name)) throw new TypeError(`not a category name: ${JSON.stringify(name)}`);
  return { category: name };
}

export class ApiClient {
  readonly baseUrl: string;
  /** openapi-fetch over every path of the document, typed per category (`/api/v1/movies/list`). */
  readonly http: Client<paths>;
  /** openapi-fetch over the category-generic paths (`/api/v1/{category}/list`, `params.path.category`). */
  readonly categoryHttp: Client<CategoryPaths>;

  constructor(options: ApiClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    const clientOptions = {
      baseUrl: this.baseUrl,
      headers: options.headers,
      fetch: createTransport({ fetch: options.fetch, onRateLimited: options.onRateLimited, timeoutMs: options.timeoutMs }),
    };
    this.http = createClient<paths>(clientOptions);
    this.categoryHttp = createClient<CategoryPaths>(clientOptions);
    const bearer = {
      async onRequest({ request }: { request: Request }) {
        const token = typeof options.token === 'function' ? await options.token() : options.token;
        if (token && !request.headers.has('authorization')) request.headers.set('authorization', `Bearer ${token}`);
        return request;
      },
    };
    this.http.use(bearer);
    this.categoryHttp.use(bearer);
  }

  categories(): Promise<Category[]> {
    return unwrap(this.http.GET('/api/v1/categories'));
  }

  /** The caller's home across every category (`GET /api/v1/home`). */
  home(): Promise<Home> {
    return unwrap(this.http.GET('/api/v1/home'));
  }

  /** One search over every category (`GET /api/v1/search`), grouped by category. */
  searchEverything(q: string, limit?: number): Promise<SearchResults> {
    return unwrap(this.http.GET('/api/v1/search', { params: { query: { q, ...(limit ? { limit } : {}) } } }));
  }

  register(body: RegisterRequest): Promise<User> {
    return unwrap(this.http.POST('/api/v1/auth/register', { body }));
  }

  login(body: LoginRequest): Promise<LoginResponse> {
    return unwrap(this.http.POST('/api/v1/auth/login', { body }));
  }

  me(): Promise<User> {
    return unwrap(this.http.GET('/api/v1/auth/me'));
  }

  listTokens(): Promise<TokenMetadata[]> {
    return unwrap(this.http.GET('/api/v1/auth/tokens'));
  }

  createToken(body: CreateTokenRequest): Promise<CreatedToken> {
    return unwrap(this.http.POST('/api/v1/auth/tokens', { body }));
  }

  revokeToken(id: string): Promise<Message> {
    return unwrap(this.http.DELETE('/api/v1/auth/tokens/{id}', { params: { path: { id } } }));
  }

  listScrobbleHooks(): Promise<ScrobbleHook[]> {
    return unwrap(this.http.GET('/api/v1/scrobble/hooks'));
  }

  /** The hook, with its `url` holding the secret: shown only in this answer. */
  createScrobbleHook(body: CreateScrobbleHookRequest): Promise<CreatedScrobbleHook> {
    return unwrap(this.http.POST('/api/v1/scrobble/hooks', { body }));
  }

  deleteScrobbleHook(id: string): Promise<Message> {
    return unwrap(this.http.DELETE('/api/v1/scrobble/hooks/{id}', { params: { path: { id } } }));
  }

  listScrobbleInbox(): Promise<ScrobbleInboxEntry[]> {
    return unwrap(this.http.GET('/api/v1/scrobble/unmatched'));
  }

  resolveScrobbleInbox(id: string, itemId: string): Promise<ResolveScrobbleInboxResult> {
    return unwrap(this.http.POST('/api/v1/scrobble/unmatched/{id}/resolve', { params: { path: { id } }, body: { item_id: itemId } }));
  }

  dismissScrobbleInbox(id: string): Promise<Message> {
    return unwrap(this.http.DELETE('/api/v1/scrobble/unmatched/{id}', { params: { path: { id } } }));
  }

  searchEntries(category: string, query: SearchQuery = {}): Promise<Page<CatalogEntry>> {
    return unwrap<Page<CatalogEntry>>(this.categoryHttp.GET('/api/v1/{category}', { params: { path: categoryPath(category), query } }));
  }

  getEntry(category: string, id: string): Promise<CatalogEntry> {
    return unwrap<CatalogEntry>(this.categoryHttp.GET('/api/v1/{category}/{id}', { params: { path: { ...categoryPath(category), id } } }));
  }

  createEntry(category: string, body: CatalogEntryCreate): Promise<CatalogEntry> {
    return unwrap<CatalogEntry>(
      this.categoryHttp.POST('/api/v1/{category}', {
        params: { path: categoryPath(category) },
        // The category's own fields are checked by the server against that category's schema.
        body: body as never,
      }),
    );
  }

  updateEntry(category: string, id: string, patch: Record<string, unknown>): Promise<CatalogEntry> {
    return unwrap<CatalogEntry>(
      this.categoryHttp.PATCH('/api/v1/{category}/{id}', { params: { path: { ...categoryPath(category), id } }, body: patch as never }),
    );
  }

  listEntries(category: string, query: ListQuery = {}): Promise<ListEntryPage> {
    return unwrap<ListEntryPage>(this.categoryHttp.GET('/api/v1/{category}/list', { params: { path: categoryPath(category), query } }));
  }

  /** Every entry of the list matching `query`, page after page (following `next_cursor` when the server gives one). */
  allListEntries(category: string, query: Omit<ListQuery, 'page'> = {}): AsyncGenerator<ListEntry, void, undefined> {
    return allPages((extra) => this.listEntries(category, { ...query, ...extra }));
  }

  getListEntry(category: string, itemId: string): Promise<ListEntry> {
    return unwrap<ListEntry>(
      this.categoryHttp.GET('/api/v1/{category}/list/{item_id}', { params: { path: { ...categoryPath(category), item_id: itemId } } }),
    );
  }

  addListEntry(category: string, body: ListEntryCreate): Promise<ListEntry> {
    return unwrap<ListEntry>(this.categoryHttp.POST('/api/v1/{category}/list', { params: { path: categoryPath(category) }, body }));
  }

  updateListEntry(category: string, itemId: string, patch: ListEntryPatch): Promise<ListEntry> {
    return unwrap<ListEntry>(
      this.categoryHttp.PATCH('/api/v1/{category}/list/{item_id}', {
        params: { path: { ...categoryPath(category), item_id: itemId } },
        body: patch,
      }),
    );
  }

  removeListEntry(category: string, itemId: string): Promise<Message> {
    return unwrap<Message>(
      this.categoryHttp.DELETE('/api/v1/{category}/list/{item_id}', { params: { path: { ...categoryPath(category), item_id: itemId } } }),
    );
  }

  /** One bulk request: at most 500 distinct ids (the API's limit; see MAX_BULK_IDS). */
  bulkUpdateStatus(category: string, itemIds: string[], status: ListStatus): Promise<BulkStatusResult> {
    return unwrap<BulkStatusResult>(
      this.categoryHttp.POST('/api/v1/{category}/bulk-status', { params: { path: categoryPath(category) }, body: { item_ids: itemIds, status } }),
    );
  }

  bulkRemoveListEntries(category: string, itemIds: string[]): Promise<BulkDeleteResult> {
    return unwrap<BulkDeleteResult>(
      this.categoryHttp.POST('/api/v1/{category}/bulk-delete', { params: { path: categoryPath(category) }, body: { item_ids: itemIds } }),
    );
  }

  /** One page of the change feed (docs/api.md "Your list in a category"); without `since`, from the start of the retained history. */
  listChanges(category: string, query: { since?: string; limit?: number } = {}): Promise<ListChangesPage> {
    return unwrap<ListChangesPage>(this.categoryHttp.GET('/api/v1/{category}/list/changes', { params: { path: categoryPath(category), query } }));
  }

  listEntryHistory(category: string, itemId: string): Promise<ListEntryHistory> {
    return unwrap<ListEntryHistory>(
      this.categoryHttp.GET('/api/v1/{category}/list/{item_id}/history', { params: { path: { ...categoryPath(category), item_id: itemId } } }),
    );
  }

  listStats(category: string): Promise<ListStats> {
    return unwrap<ListStats>(this.categoryHttp.GET('/api/v1/{category}/list/stats', { params: { path: categoryPath(category) } }));
  }

  /** Plays (docs/api.md "Episodes, plays and rewatches"): record, list, remove; the diary across a category. */
  recordPlays(category: string, itemId: string, body: PlaysRequest): Promise<PlaysAdded> {
    return unwrap<PlaysAdded>(
      this.categoryHttp.POST('/api/v1/{category}/list/{item_id}/plays', { params: { path: { ...categoryPath(category), item_id: itemId } }, body }),
    );
  }

  listPlays(category: string, itemId: string, query: { cursor?: string; limit?: number } = {}): Promise<PlaysPage> {
    return unwrap<PlaysPage>(
      this.categoryHttp.GET('/api/v1/{category}/list/{item_id}/plays', { params: { path: { ...categoryPath(category), item_id: itemId }, query } }),
    );
  }

  deletePlay(category: string, itemId: string, playId: string): Promise<Message> {
    return unwrap<Message>(
      this.categoryHttp.DELETE('/api/v1/{category}/list/{item_id}/plays/{play_id}', {
        params: { path: { ...categoryPath(category), item_id: itemId, play_id: playId } },
      }),
    );
  }

  diary(category: string, query: { from?: string; to?: string; cursor?: string; limit?: number } = {}): Promise<DiaryPage> {
    return unwrap<DiaryPage>(this.categoryHttp.GET('/api/v1/{category}/list/plays', { params: { path: categoryPath(category), query } }));
  }

  /** Every play of the diary: follows `next_cursor` to the end. */
  async *allDiary(category: string, query: { from?: string; to?: string; limit?: number } = {}): AsyncGenerator<DiaryPlay, void, undefined> {
    let cursor: string | undefined;
    for (;;) {
      const page = await this.diary(category, { ...query, cursor });
      yield* page.data;
      if (!page.next_cursor) return;
      cursor = page.next_cursor;
    }
  }

  /** A show's progress and up next (tvshows). */
  showProgress(itemId: string): Promise<ShowProgress> {
    return unwrap<ShowProgress>(this.http.GET('/api/v1/tvshows/list/{item_id}/progress', { params: { path: { item_id: itemId } } }));
  }

  upNext(query: { cursor?: string; limit?: number } = {}): Promise<UpNextPage> {
    return unwrap<UpNextPage>(this.http.GET('/api/v1/tvshows/list/up-next', { params: { query } }));
  }

  /** Replaces one season's episodes of a show (its creator, or a moderator). */
  replaceSeason(showId: string, season: number, body: SeasonRequest): Promise<Episode[]> {
    return unwrap<Episode[]>(this.http.PUT('/api/v1/tvshows/{id}/seasons/{season}', { params: { path: { id: showId, season } }, body }));
  }

  /** The export file as it arrives (docs/api.md "Your list in a category"): the body is never read into memory here. */
  async exportList(
    category: string,
    format: ExportFormat = 'json',
  ): Promise<{ body: ReadableStream<Uint8Array>; contentType: string; fileName: string | undefined }> {
    const { data, error, response } = await this.categoryHttp.GET('/api/v1/{category}/list/export', {
      params: { path: categoryPath(category), query: { format } },
      parseAs: 'stream',
    });
    if (!response.ok || !data) throw ApiError.fromResponse(response, error);
    const disposition = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '');
    return { body: data as ReadableStream<Uint8Array>, contentType: response.headers.get('content-type') ?? '', fileName: disposition?.[1] };
  }

  /** Uploads a file to import (its content type must be the one the source is written in); the queued job. */
  startImport(category: string, file: ImportUpload): Promise<ImportJob> {
    return unwrap<ImportJob>(
      this.categoryHttp.POST('/api/v1/{category}/list/imports', {
        params: {
          path: categoryPath(category),
          query: { source: file.source, mode: file.mode, dry_run: file.dryRun, file: file.fileName } as never,
        },
        body: file.body as never,
        // The file goes as it is, in the media type its source is written in.
        bodySerializer: (body: unknown) => body as string,
        headers: { 'Content-Type': file.contentType },
      }),
    );
  }

  getImport(category: string, id: string): Promise<ImportJob> {
    return unwrap<ImportJob>(this.categoryHttp.GET('/api/v1/{category}/list/imports/{id}', { params: { path: { ...categoryPath(category), id } } }));
  }

  listImports(category: string, query: { page?: number; cursor?: string; limit?: number } = {}): Promise<ImportJobPage> {
    return unwrap<ImportJobPage>(this.categoryHttp.GET('/api/v1/{category}/list/imports', { params: { path: categoryPath(category), query } }));
  }

  /** Every import job of the list, newest first, following `next_cursor`. */
  allImports(category: string, query: { limit?: number } = {}): AsyncGenerator<ImportJob, void, undefined> {
    return allPages((extra) => this.listImports(category, { ...query, ...extra }));
  }

  /** Moderators (docs/api.md "The catalog of a category"): removes a catalog entry and every list entry pointing at it. */
  deleteEntry(category: string, id: string): Promise<EntryRemoval> {
    return unwrap<EntryRemoval>(this.categoryHttp.DELETE('/api/v1/{category}/{id}', { params: { path: { ...categoryPath(category), id } } }));
  }

  /** Moderators: folds `id` into `into`; the surviving entry. */
  mergeEntry(category: string, id: string, into: string): Promise<CatalogEntry> {
    return unwrap<CatalogEntry>(
      this.categoryHttp.POST('/api/v1/{category}/{id}/merge', { params: { path: { ...categoryPath(category), id } }, body: { into } }),
    );
  }

  /** Admins: grants or removes the moderator role. */
  setUserRole(userId: string, role: AssignableRole): Promise<User> {
    return unwrap(this.http.PUT('/api/v1/auth/users/{id}/role', { params: { path: { id: userId } }, body: { role } }));
  }

  /** The category's metadata providers (docs/api.md "Metadata providers and posters"): works found, each with `existing_id`. */
  searchProviders(category: string, query: ProviderSearchQuery): Promise<ProviderSearch> {
    return unwrap<ProviderSearch>(this.categoryHttp.GET('/api/v1/{category}/providers/search', { params: { path: categoryPath(category), query } }));
  }

  /** A new catalog entry from a provider's work (409 with `existingId` when the catalog has it). */
  importFromProvider(category: string, body: ProviderImport): Promise<CatalogEntry> {
    return unwrap<CatalogEntry>(this.categoryHttp.POST('/api/v1/{category}/providers/import', { params: { path: categoryPath(category) }, body }));
  }

  /** Re-reads an entry from its provider (its creator, or a moderator). */
  refreshEntry(category: string, id: string): Promise<CatalogEntry> {
    return unwrap<CatalogEntry>(this.categoryHttp.POST('/api/v1/{category}/{id}/refresh', { params: { path: { ...categoryPath(category), id } } }));
  }
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
