import type { OpenApiLike } from '../screens/catalog/entry-form-schema';
import type { WebApi } from './web-api';

/** The served OpenAPI document, fetched once per page load by the screens that read it (forms, scopes). */
const documents = new WeakMap<WebApi, Promise<OpenApiLike>>();

export function openApiDocument(api: WebApi): Promise<OpenApiLike> {
  let pending = documents.get(api);
  if (!pending) {
    pending = api.http.GET('/api/v1/openapi.json').then(({ data, response }) => {
      if (!response.ok) throw new Error(`openapi.json: HTTP ${response.status}`);
      return data as OpenApiLike;
    });
    pending.catch(() => documents.delete(api));
    documents.set(api, pending);
  }
  return pending;
}

/** The PAT scopes the API knows (`Scope` enum), in its order. */
export function scopesOf(doc: OpenApiLike): string[] {
  const scope = doc.components?.schemas?.['Scope'] as { enum?: unknown[] } | undefined;
  return (scope?.enum ?? []).filter((s): s is string => typeof s === 'string');
}

/** The import sources the API documents for a category (`source` of POST …/list/imports), in its order. */
export function importSourcesOf(doc: OpenApiLike, category: string): string[] {
  const operation = doc.paths?.[`/api/v1/${category}/list/imports`]?.['post'] as
    | { parameters?: Array<{ name?: string; in?: string; schema?: { enum?: unknown[] } }> }
    | undefined;
  const source = operation?.parameters?.find((p) => p.name === 'source' && p.in === 'query');
  return (source?.schema?.enum ?? []).filter((s): s is string => typeof s === 'string');
}
