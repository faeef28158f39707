import { defineEndpoint, PUBLIC, reply, scope, type Endpoint } from '@mt/endpoints';
import { categoryBasePath, type CategoryDefinition } from '../domain/categories';
import { catalogSchemas } from '../features/catalog/catalog.schemas';
import { type EntryFieldsInput } from '../domain/catalog-query';
import type { CatalogService } from '../features/catalog/catalog.service';

const DUPLICATES =
  'Two entries are duplicates when their titles match case- and accent-insensitively and their years are equal or both missing: 409 with `existing_id`.';

/** GET/POST /api/v1/{category} and GET/PATCH /api/v1/{category}/{id}, reads before writes. */
export function catalogEndpoints(category: CategoryDefinition, service: CatalogService): Endpoint[] {
  const s = catalogSchemas(category);
  return [
    defineEndpoint({
      name: 'search entries',
      method: 'GET',
      path: '/',
      access: PUBLIC,
      summary: `Search and list ${category.displayName}`,
      description:
        'Search (`q`) matches whole words and word prefixes of the title, case- and accent-insensitively; every word must match. ' +
        'Pagination: `page` ≥ 1, `limit` 1–100; a page past the last is a 200 with empty `data` and the true `total`; `total_pages` is 0 when `total` is 0. ' +
        'Cursor pages: `cursor=start` (or empty) instead of `page`, then each page\'s `next_cursor` until it is null; `total` stays exact. ' +
        'Offset pages give `next_cursor` too, so a client can switch after any page. Cursor pages read the sort index from the cursor\'s position, so page 2 000 costs what page 2 does. ' +
        'Invalid or unknown parameters are a 400 (never clamped).',
      query: s.ListQuery,
      responses: { 200: { description: 'A page of entries', schema: s.EntryPage } },
      async handle({ query }) {
        return reply.ok(await service.list(query));
      },
    }),
    defineEndpoint({
      name: 'get entry',
      method: 'GET',
      path: '/{id}',
      access: PUBLIC,
      summary: 'One catalog entry',
      description:
        'An entry a moderator merged into another answers 301 with the survivor\'s path in `Location`, for good (one small redirect record per merge; ' +
        'a merged id is otherwise gone: PATCH, DELETE, merge and list additions of it are 404). If the survivor is removed later, the merged id is 404 too.',
      params: s.IdParams,
      responses: {
        200: { description: 'The entry', schema: s.Entry },
        301: { description: 'The entry was merged into another: `Location` is its path', headers: { Location: { description: 'Path of the surviving entry', schema: { type: 'string' } } } },
      },
      async handle({ params }) {
        const found = await service.locate(params.id);
        return 'location' in found ? reply.status(301, undefined, { Location: found.location }) : reply.ok(found.entry);
      },
    }),
    defineEndpoint({
      name: 'create entry',
      method: 'POST',
      path: '/',
      access: scope('catalog:write'),
      summary: `Add an entry to the ${category.displayName} catalog`,
      description: DUPLICATES,
      body: s.CreateEntry,
      responses: { 201: { description: 'The new entry', schema: s.Entry } },
      errors: [409],
      async handle({ body, caller }) {
        // The schema's own fields are keyed by name at runtime; zod has validated every one of them.
        const entry = await service.create(body as EntryFieldsInput & { title: string }, caller.userId);
        return reply.created(entry, `${categoryBasePath(category)}/${String(entry['id'])}`);
      },
    }),
    defineEndpoint({
      name: 'update entry',
      method: 'PATCH',
      path: '/{id}',
      access: scope('catalog:write'),
      summary: 'Change a catalog entry',
      description: `Only the user who created the entry may change it (403), or a moderator: a credential that also holds \`catalog:moderate\` may change any entry, also one whose creator deleted their account. A change that makes it a duplicate of another entry is a 409 with \`existing_id\`.`,
      params: s.IdParams,
      body: s.PatchEntry,
      responses: { 200: { description: 'The updated entry', schema: s.Entry } },
      errors: [409],
      async handle({ params, body, caller }) {
        return reply.ok(await service.update(params.id, body as EntryFieldsInput, caller.userId, caller.scopes.includes('catalog:moderate')));
      },
    }),
  ];
}
