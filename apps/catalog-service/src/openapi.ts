import { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { bearerSecurity, generateFragment, MessageSchema, registerBearerAuth, responses, type OpenApiFragment, type z } from '@mt/contracts';
import { categoryBasePath, getCategory, type CategoryDefinition } from './categories/categories';
import { catalogSchemas } from './catalog/catalog.schemas';
import { listSchemas, MAX_BULK_IDS } from './lists/list.schemas';

const jsonBody = (schema: z.ZodType) => ({ required: true, content: { 'application/json': { schema } } });

const scopeNote = (scope: string) =>
  `Requires a JWT, or a personal access token with the \`${scope}\` scope (403 naming the scope otherwise).`;

/** A JSON body can be malformed or invalid (400), too large (413), or not JSON (415). */
const BODY_ERRORS = [400, 413, 415];
/** No or invalid credential (401), missing scope (403). */
const AUTH_ERRORS = [401, 403];
/** Public reads ignore credentials, except an invalid one (401). */
const PUBLIC_ERRORS = [400, 401];

function registerCatalogPaths(registry: OpenAPIRegistry, category: CategoryDefinition, tag: string): void {
  const base = categoryBasePath(category);
  const s = catalogSchemas(category);

  registry.registerPath({
    method: 'get',
    path: base,
    tags: [tag],
    summary: `Search and list ${category.displayName}`,
    description:
      'Public. Search (`q`) matches whole words and word prefixes of the title, case- and accent-insensitively, every word must match. ' +
      'Pagination: `page` ≥ 1, `limit` 1–100; a page past the last is a 200 with empty `data` and the true `total`; `total_pages` is 0 when `total` is 0. ' +
      'Invalid or unknown parameters are a 400 (never clamped).',
    request: { query: s.ListQuery },
    responses: responses({ 200: { description: 'A page of entries', schema: s.EntryPage } }, PUBLIC_ERRORS),
  });

  registry.registerPath({
    method: 'post',
    path: base,
    tags: [tag],
    summary: `Add an entry to the ${category.displayName} catalog`,
    description: `${scopeNote('catalog:write')} Two entries are duplicates when their titles match case- and accent-insensitively and their years are equal or both missing: 409 with \`existing_id\`.`,
    security: bearerSecurity,
    request: { body: jsonBody(s.CreateEntry) },
    responses: responses({ 201: { description: 'The new entry', schema: s.Entry } }, [...BODY_ERRORS, ...AUTH_ERRORS, 409]),
  });

  registry.registerPath({
    method: 'get',
    path: `${base}/{id}`,
    tags: [tag],
    summary: 'One catalog entry',
    description: 'Public.',
    request: { params: s.IdParams },
    responses: responses({ 200: { description: 'The entry', schema: s.Entry } }, [...PUBLIC_ERRORS, 404]),
  });

  registry.registerPath({
    method: 'patch',
    path: `${base}/{id}`,
    tags: [tag],
    summary: 'Change a catalog entry',
    description: `${scopeNote('catalog:write')} Only the user who created the entry may change it (403). A change that makes it a duplicate of another entry is a 409 with \`existing_id\`.`,
    security: bearerSecurity,
    request: { params: s.IdParams, body: jsonBody(s.PatchEntry) },
    responses: responses({ 200: { description: 'The updated entry', schema: s.Entry } }, [...BODY_ERRORS, ...AUTH_ERRORS, 404, 409]),
  });
}

function registerListPaths(registry: OpenAPIRegistry, category: CategoryDefinition, tag: string): void {
  const base = categoryBasePath(category);
  const s = listSchemas(category);
  const own = "Each user sees and changes only their own list; another user's entry is a 404.";

  registry.registerPath({
    method: 'get',
    path: `${base}/list`,
    tags: [tag],
    summary: `Your ${category.displayName} list`,
    description: `${scopeNote('list:read')} ${own}`,
    security: bearerSecurity,
    request: { query: s.ListQuery },
    responses: responses({ 200: { description: 'A page of list entries', schema: s.ListEntryPage } }, [400, ...AUTH_ERRORS]),
  });

  registry.registerPath({
    method: 'post',
    path: `${base}/list`,
    tags: [tag],
    summary: 'Add a catalog entry to your list',
    description: `${scopeNote('list:write')} 404 when the catalog entry does not exist; 409 when it is already on your list.`,
    security: bearerSecurity,
    request: { body: jsonBody(s.AddListEntry) },
    responses: responses({ 201: { description: 'The new list entry', schema: s.ListEntry } }, [...BODY_ERRORS, ...AUTH_ERRORS, 404, 409]),
  });

  registry.registerPath({
    method: 'get',
    path: `${base}/list/{item_id}`,
    tags: [tag],
    summary: 'One entry of your list',
    description: `${scopeNote('list:read')} ${own}`,
    security: bearerSecurity,
    request: { params: s.ItemIdParams },
    responses: responses({ 200: { description: 'The list entry', schema: s.ListEntry } }, [400, ...AUTH_ERRORS, 404]),
  });

  registry.registerPath({
    method: 'patch',
    path: `${base}/list/{item_id}`,
    tags: [tag],
    summary: 'Change an entry of your list',
    description: `${scopeNote('list:write')} ${own} A 409 only if the entry kept changing concurrently.`,
    security: bearerSecurity,
    request: { params: s.ItemIdParams, body: jsonBody(s.PatchListEntry) },
    responses: responses({ 200: { description: 'The updated list entry', schema: s.ListEntry } }, [...BODY_ERRORS, ...AUTH_ERRORS, 404, 409]),
  });

  registry.registerPath({
    method: 'delete',
    path: `${base}/list/{item_id}`,
    tags: [tag],
    summary: 'Remove an entry from your list',
    description: `${scopeNote('list:write')} ${own}`,
    security: bearerSecurity,
    request: { params: s.ItemIdParams },
    responses: responses({ 200: { description: 'Removed', schema: MessageSchema } }, [400, ...AUTH_ERRORS, 404]),
  });

  const bulkNote = `The request is validated as a whole (an invalid id, a duplicate, an empty list or more than ${MAX_BULK_IDS} ids → 400 and nothing changes), then applied atomically to every listed entry you have; ids not on your list are reported in \`not_found\`.`;
  registry.registerPath({
    method: 'post',
    path: `${base}/bulk-status`,
    tags: [tag],
    summary: 'Move many list entries to one status',
    description: `${scopeNote('list:write')} ${bulkNote} \`updated\` counts the matched entries, including those already in the target status. A move that would put an entry's finish date before its start date is a 400 for the whole request.`,
    security: bearerSecurity,
    request: { body: jsonBody(s.BulkStatus) },
    responses: responses({ 200: { description: 'How many entries matched, and the ids not on your list', schema: s.BulkStatusResult } }, [
      ...BODY_ERRORS,
      ...AUTH_ERRORS,
    ]),
  });

  registry.registerPath({
    method: 'post',
    path: `${base}/bulk-delete`,
    tags: [tag],
    summary: 'Remove many entries from your list',
    description: `${scopeNote('list:write')} ${bulkNote}`,
    security: bearerSecurity,
    request: { body: jsonBody(s.BulkDelete) },
    responses: responses({ 200: { description: 'How many entries were removed, and the ids not on your list', schema: s.BulkDeleteResult } }, [
      ...BODY_ERRORS,
      ...AUTH_ERRORS,
    ]),
  });
}

const fragments = new Map<string, OpenApiFragment>();

/**
 * The category's OpenAPI fragment (paths under /api/v1/<category>, components prefixed with the
 * category's name), handed to the registry at registration and merged by the gateway.
 */
export function buildCategoryOpenApi(categoryOrId: CategoryDefinition | string): OpenApiFragment {
  const category = typeof categoryOrId === 'string' ? getCategory(categoryOrId) : categoryOrId;
  let fragment = fragments.get(category.id);
  if (!fragment) {
    const registry = new OpenAPIRegistry();
    registerBearerAuth(registry);
    registerListPaths(registry, category, category.displayName);
    registerCatalogPaths(registry, category, category.displayName);
    fragment = generateFragment(registry);
    fragments.set(category.id, fragment);
  }
  return fragment;
}
