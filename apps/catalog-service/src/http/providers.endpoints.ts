import { errors } from '@mt/errors';
import { defineEndpoint, PUBLIC, reply, scope, type Endpoint } from '@mt/endpoints';
import { categoryBasePath, type CategoryDefinition } from '../domain/categories';
import { catalogSchemas } from '../features/catalog/catalog.schemas';
import type { ProviderImportService } from '../features/providers/provider-import.service';
import type { ProviderSearchService } from '../features/providers/provider-search.service';
import { ProviderImportSchema, ProviderSearchQuerySchema, ProviderSearchSchema } from '../features/providers/providers.schemas';

const FAILURES =
  'A provider that fails, times out (5 s) or answers garbage is a 502 `provider_unavailable`; its refusal (429, after one retry) is a 503 with `Retry-After`. ' +
  'An unknown or unconfigured provider is a 400 naming the configured ones.';

/** The category's metadata provider endpoints: search, import, refresh (docs/api.md "Metadata providers"). */
export function providerEndpoints(category: CategoryDefinition, search: ProviderSearchService, imports: ProviderImportService): Endpoint[] {
  const entry = catalogSchemas(category);
  return [
    defineEndpoint({
      name: 'search providers',
      method: 'GET',
      path: '/providers/search',
      // Any signed-in user: the gateway forwards the identity of a valid credential of any scope.
      access: PUBLIC,
      summary: `Search the metadata providers for ${category.displayName}`,
      description:
        'Any authenticated user (401 without a valid credential); 30 searches a minute per user, then 429 with `Retry-After`. ' +
        'Without `provider`, every provider serving the category is searched. Each result names the catalog entry that already holds one of its external ids (`existing_id`), ' +
        'so a client offers that entry instead of a duplicate. Answers are cached for 24 h: the same search does not spend the provider\'s quota twice. ' +
        FAILURES,
      query: ProviderSearchQuerySchema,
      responses: { 200: { description: 'Works found at the providers', schema: ProviderSearchSchema } },
      errors: [401, 502, 503],
      // Documented as needing a bearer credential, which is what the handler holds it to.
      openapi: { security: [{ bearerAuth: [] }] },
      async handle({ query, caller }) {
        if (!caller) throw errors.unauthorized('provider search needs a signed-in user');
        return reply.ok(await search.search(caller.userId, query));
      },
    }),
    defineEndpoint({
      name: 'import from provider',
      method: 'POST',
      path: '/providers/import',
      access: scope('catalog:write'),
      summary: `Add a ${category.displayName} entry from a metadata provider`,
      description:
        "The new entry carries the provider's metadata: title, year, description, genres, the category's own fields, external ids and `poster_url`; " +
        'a show comes with every season\'s episodes (specials as season 0); a book with the edition the search named, else the work\'s first edition with an ISBN. ' +
        'A work whose external id an entry already holds (or whose title and year one has) is a 409 with `existing_id`: of concurrent imports of one work exactly one creates it. ' +
        'An id the provider does not know is a 404. ' +
        FAILURES,
      body: ProviderImportSchema,
      responses: { 201: { description: 'The new entry', schema: entry.Entry } },
      errors: [404, 409, 502, 503],
      async handle({ body, caller }) {
        const created = await imports.import(body, caller.userId);
        return reply.created(created, `${categoryBasePath(category)}/${String(created['id'])}`);
      },
    }),
    defineEndpoint({
      name: 'refresh entry',
      method: 'POST',
      path: '/{id}/refresh',
      access: scope('catalog:write'),
      summary: 'Re-read an entry from its metadata provider',
      description:
        'The creator, or a moderator (`catalog:moderate`): others get 403. The provider is asked again, bypassing the cache; the values it gives replace the entry\'s ' +
        '(an ISBN the entry has stays), and a show\'s new episodes and air dates appear while its episode ids and everyone\'s plays stay. ' +
        'An entry holding no id of a configured provider is a 409. Shows someone is watching are refreshed by the service once a day. ' +
        FAILURES,
      params: entry.IdParams,
      responses: { 200: { description: 'The refreshed entry', schema: entry.Entry } },
      errors: [404, 409, 502, 503],
      async handle({ params, caller }) {
        return reply.ok(await imports.refresh(params.id, { userId: caller.userId, moderator: caller.scopes.includes('catalog:moderate') }));
      },
    }),
  ];
}
