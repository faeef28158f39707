import { ApiError, type CatalogEntry, type Schemas } from '@mt/api-client';
import type { WebApi } from './web-api';

export type ImportJob = Schemas['ImportJob'];
export type ImportJobPage = Schemas['ImportJobPage'];
export type ImportMode = ImportJob['mode'];
export type ListStats = Schemas['ListStats'];
export type HistoryEvent = Schemas['ListEntryHistoryEvent'];
export type ExportFormat = 'json' | 'csv';

interface FetchResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

async function unwrap<T>(pending: Promise<FetchResult<unknown>>): Promise<T> {
  const { data, error, response } = await pending;
  if (!response.ok) throw ApiError.fromResponse(response, error);
  return data as T;
}

/** The sources whose files are JSON (docs/api.md "Your list in a category"); every other documented source is CSV. */
const JSON_SOURCES = new Set(['media-tracker', 'trakt']);

/** How a file is sent: as its source writes it, else by its name (a source the app does not know yet). */
export function importMediaType(source: string, fileName: string): 'application/json' | 'text/csv' {
  if (JSON_SOURCES.has(source)) return 'application/json';
  return /\.json$/i.test(fileName) ? 'application/json' : 'text/csv';
}

export interface StartImport {
  source: string;
  mode: ImportMode;
  dryRun: boolean;
  file: File;
  /** The file's kind where a source writes several files with one header (Letterboxd's `watched.csv`, `watchlist.csv`); else its name is sent. */
  fileKind?: string;
}

/**
 * POST …/list/imports: the file's bytes are the raw body, as they are (never decoded: a file that is not
 * UTF-8 must reach the server so it can say so). Answers the queued job.
 */
export async function startImport(api: WebApi, category: string, start: StartImport): Promise<ImportJob> {
  const bytes = new Uint8Array(await start.file.arrayBuffer());
  return unwrap(
    api.categoryHttp.POST('/api/v1/{category}/list/imports', {
      params: {
        path: { category },
        // Letterboxd needs the file's name to tell watched.csv from watchlist.csv; the others keep it for the report.
        query: { source: start.source as never, mode: start.mode, dry_run: start.dryRun, file: start.fileKind ?? (start.file.name.slice(0, 255) || undefined) },
      },
      body: bytes as never,
      bodySerializer: (body: unknown) => body as BodyInit,
      headers: { 'content-type': importMediaType(start.source, start.file.name) },
    }),
  );
}

export function getImport(api: WebApi, category: string, id: string, signal?: AbortSignal): Promise<ImportJob> {
  return unwrap(api.categoryHttp.GET('/api/v1/{category}/list/imports/{id}', { params: { path: { category, id } }, signal }));
}

export function listImports(api: WebApi, category: string, limit: number, signal?: AbortSignal): Promise<ImportJobPage> {
  return unwrap(api.categoryHttp.GET('/api/v1/{category}/list/imports', { params: { path: { category }, query: { page: 1, limit } }, signal }));
}

export const isFinished = (job: ImportJob) => job.status === 'completed' || job.status === 'failed';

/** The name the server gives the download (`Content-Disposition`), else one of the same form. */
export function downloadName(disposition: string | null, category: string, format: ExportFormat): string {
  const named = disposition?.match(/filename="?([^";]+)"?/i)?.[1];
  const safe = named?.replace(/[\\/]/g, '_').trim();
  return safe || `${category}-list.${format}`;
}

/**
 * GET …/list/export as a file: it needs the Authorization header, so it is fetched (not a plain link) and
 * handed to the browser as a Blob.
 */
export async function exportList(api: WebApi, category: string, format: ExportFormat): Promise<{ blob: Blob; fileName: string }> {
  const { data, error, response } = await api.categoryHttp.GET('/api/v1/{category}/list/export', {
    params: { path: { category }, query: { format } },
    parseAs: 'blob',
  });
  if (!response.ok) throw ApiError.fromResponse(response, error);
  return { blob: data as Blob, fileName: downloadName(response.headers.get('content-disposition'), category, format) };
}

/** Saves a Blob under a name through a temporary object URL (revoked once the browser has taken it). */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export function getStats(api: WebApi, category: string, signal?: AbortSignal): Promise<ListStats> {
  return unwrap(api.categoryHttp.GET('/api/v1/{category}/list/stats', { params: { path: { category } }, signal }));
}

export function getHistory(api: WebApi, category: string, itemId: string, signal?: AbortSignal): Promise<HistoryEvent[]> {
  return unwrap(api.categoryHttp.GET('/api/v1/{category}/list/{item_id}/history', { params: { path: { category, item_id: itemId } }, signal }));
}

export type EntryRemoval = Schemas['EntryRemoval'];

/** DELETE /{category}/{id} (moderators): the entry and every list entry pointing at it. */
export function deleteCatalogEntry(api: WebApi, category: string, id: string): Promise<EntryRemoval> {
  return unwrap(api.categoryHttp.DELETE('/api/v1/{category}/{id}', { params: { path: { category, id } } }));
}

/** POST /{category}/{id}/merge (moderators): folds `id` into `into`; answers the surviving entry. */
export function mergeCatalogEntry(api: WebApi, category: string, id: string, into: string): Promise<CatalogEntry> {
  return unwrap(api.categoryHttp.POST('/api/v1/{category}/{id}/merge', { params: { path: { category, id } }, body: { into } }));
}
