// A catalog fragment shaped like docs/api.md "Endpoints", generated with zod-to-openapi as the catalog service does.
// Deliberately generic names (operationIds, an `Entry` schema that differs per category), so the merge
// has to dedupe and rename as it would with a careless fragment.
import { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { bearerSecurity, generateFragment, MessageSchema, pageSchema, registerBearerAuth, z, type OpenApiFragment } from '@mt/contracts';
import { operationResponses, registerResponseHeaders } from '@mt/endpoints';

const responses = (successes: Parameters<typeof operationResponses>[0], errors: number[]) => operationResponses(successes, errors, { rateLimited: true });

const OWN_FIELDS: Record<string, Record<string, z.ZodType>> = {
  movies: { runtime_minutes: z.number().int().min(1).max(10000).nullable(), director: z.string().max(200).nullable() },
  tvshows: { seasons: z.number().int().min(0).max(1000).nullable(), episodes: z.number().int().min(0).nullable(), network: z.string().max(200).nullable() },
  books: { authors: z.array(z.string().min(1).max(200)).max(20), isbn: z.string().nullable(), pages: z.number().int().min(1).nullable() },
};

export function catalogFragment(category: string): OpenApiFragment {
  const base = `/api/v1/${category}`;
  const registry = new OpenAPIRegistry();
  registerBearerAuth(registry);
  registerResponseHeaders(registry);
  const Entry = z
    .object({
      id: z.string(),
      title: z.string().min(1).max(300),
      year: z.number().int().min(1870).max(2100).nullable(),
      description: z.string().max(5000).nullable(),
      genres: z.array(z.string().min(1).max(50)).max(20),
      created_by: z.string().nullable(),
      created_at: z.string().openapi({ format: 'date-time' }),
      updated_at: z.string().openapi({ format: 'date-time' }),
      ...OWN_FIELDS[category],
    })
    .openapi('Entry');
  const NewEntry = z.strictObject({ title: z.string().min(1).max(300), year: z.number().int().min(1870).max(2100).optional() });
  const IdParams = z.object({ id: z.string().regex(/^[0-9a-f]{24}$/) });
  const ListQuery = z.strictObject({
    q: z.string().min(1).max(200).optional(),
    page: z.string().regex(/^\d+$/).optional(),
    limit: z.string().regex(/^\d+$/).optional(),
    sort: z.enum(['relevance', 'title', 'year', 'created_at', 'updated_at']).optional(),
    order: z.enum(['asc', 'desc']).optional(),
  });
  const tags = [category];

  registry.registerPath({
    method: 'get', path: base, operationId: 'listEntries', summary: 'Search the catalog', tags, security: [],
    request: { query: ListQuery },
    responses: responses({ 200: { description: 'A page of entries', schema: pageSchema(Entry, `${category}Page`) } }, [400, 401]),
  });
  registry.registerPath({
    method: 'post', path: base, operationId: 'createEntry', summary: 'Add an entry', tags, security: bearerSecurity,
    request: { body: { required: true, content: { 'application/json': { schema: NewEntry } } } },
    responses: responses({ 201: { description: 'Created', schema: Entry } }, [400, 401, 403, 409, 413, 415]),
  });
  registry.registerPath({
    method: 'get', path: `${base}/{id}`, operationId: 'getEntry', summary: 'One entry', tags, security: [],
    request: { params: IdParams },
    responses: responses({ 200: { description: 'The entry', schema: Entry } }, [400, 401, 404]),
  });
  registry.registerPath({
    method: 'get', path: `${base}/list`, operationId: 'listMyEntries', summary: 'Your list', tags, security: bearerSecurity,
    responses: responses({ 200: { description: 'Your entries', schema: z.object({ data: z.array(z.object({ item_id: z.string() })) }) } }, [400, 401, 403]),
  });
  registry.registerPath({
    method: 'delete', path: `${base}/list/{id}`, operationId: 'removeFromList', summary: 'Remove from your list', tags, security: bearerSecurity,
    request: { params: IdParams },
    responses: responses({ 200: { description: 'Removed', schema: MessageSchema } }, [400, 401, 403, 404]),
  });
  return generateFragment(registry);
}
