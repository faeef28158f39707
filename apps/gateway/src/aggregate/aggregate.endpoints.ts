import { defineEndpoint, PUBLIC, reply, scope, type EndpointGroup } from '@mt/endpoints';
import type { Identity } from '@mt/identity';
import type { RouteTable } from '@mt/registry-client';
import { errors } from '@mt/errors';
import { EntryPageParams, EntryPageSchema, HomeSchema, ListMarksParams, ListMarksQuery, ListMarksSchema, SearchQuerySchema, SearchResultsSchema } from './aggregate.schemas';
import { listMarks } from './list-marks.service';
import { entryWithListEntry } from './entry-page.service';
import { asApiError, CategoryCallError, CategoryClient } from './category-client';
import { buildHome } from './home.service';
import { searchEverywhere } from './search.service';

export interface AggregateDeps {
  routeTable: RouteTable;
  internalSecret: string;
  /** Each category's deadline within one aggregate request; a category that misses it is reported, not awaited. */
  categoryTimeoutMs: number;
}

const PARTIAL =
  'Each category is asked over its own public endpoints with the caller\'s identity, all at once, each under a deadline; a category that fails or is too slow is listed in `unavailable` and the answer is still a 200.';

/** Answers a person's start page needs from every category at once, so a client makes one request instead of one per category. */
export function aggregateEndpoints(deps: AggregateDeps): EndpointGroup {
  const { routeTable, internalSecret, categoryTimeoutMs } = deps;
  const clientFor = (identity: Identity | undefined, requestId: unknown) =>
    new CategoryClient({ routeTable, internalSecret, identity, requestId: String(requestId ?? '') });
  return {
    namespace: 'gateway',
    mount: '/api/v1',
    tags: [{ name: 'home', description: 'Every category at once: your home and one search' }],
    endpoints: [
      defineEndpoint({
        name: 'get home',
        method: 'GET',
        path: '/home',
        access: scope('list:read'),
        summary: 'Your home: up next, recently finished, this month',
        description: `What you are watching or reading in every category, what you finished lately and this month's counts. ${PARTIAL}`,
        responses: { 200: { description: 'Your home', schema: HomeSchema } },
        async handle({ caller, res }) {
          const home = await buildHome(clientFor(caller, res.locals['requestId']), routeTable.categories(), categoryTimeoutMs);
          return reply.ok(home, { 'Cache-Control': 'no-store' });
        },
      }),
      defineEndpoint({
        name: 'search everything',
        method: 'GET',
        path: '/search',
        access: PUBLIC,
        summary: 'Search every category at once',
        description: `The first results of each category's own search (\`GET /api/v1/{category}?q=\`), grouped by category; with a credential that has \`list:read\`, each result says whether it is on your list. ${PARTIAL}`,
        query: SearchQuerySchema,
        responses: { 200: { description: 'Results grouped by category', schema: SearchResultsSchema } },
        async handle({ caller, query, res }) {
          const results = await searchEverywhere(clientFor(caller, res.locals['requestId']), routeTable.categories(), categoryTimeoutMs, {
            q: query.q,
            limit: query.limit,
            withListMarks: caller?.scopes.includes('list:read') ?? false,
          });
          return reply.ok(results, { 'Cache-Control': caller ? 'no-store' : 'no-cache' });
        },
      }),
      defineEndpoint({
        name: 'get entry page',
        method: 'GET',
        path: '/entries/{category}/{id}',
        access: PUBLIC,
        summary: 'A catalog entry with your list entry for it',
        description:
          "What an entry's page shows, in one answer: the catalog entry (a merged id's survivor) and, with a credential that has `list:read`, your list entry for it — `null` when it is not on your list (where `GET /api/v1/{category}/list/{item_id}` answers 404).",
        params: EntryPageParams,
        responses: { 200: { description: 'The entry and your list entry', schema: EntryPageSchema } },
        async handle({ caller, params, res }) {
          const category = routeTable.categories().find((c) => c.id === params.category);
          if (!category) throw errors.notFound(`no category ${params.category}`);
          const withList = caller?.scopes.includes('list:read') ?? false;
          const page = await entryWithListEntry(clientFor(caller, res.locals['requestId']), category, params.id, withList, categoryTimeoutMs);
          return reply.ok(page, { 'Cache-Control': caller ? 'no-store' : 'no-cache' });
        },
      }),
      defineEndpoint({
        name: 'get list marks',
        method: 'GET',
        path: '/entries/{category}',
        access: scope('list:read'),
        summary: 'Which of these works are on your list',
        description:
          'For a page of search results: each id → your list entry in brief (`status`, `progress`, `score`), or `null` when it is not on your list. Unknown ids are `null` too.',
        params: ListMarksParams,
        query: ListMarksQuery,
        responses: { 200: { description: 'Each id and where it stands on your list', schema: ListMarksSchema } },
        async handle({ caller, params, query, res }) {
          const category = routeTable.categories().find((c) => c.id === params.category);
          if (!category) throw errors.notFound(`no category ${params.category}`);
          const ids = [...new Set(query.ids.split(','))];
          try {
            const marks = await listMarks(clientFor(caller, res.locals['requestId']), category.id, ids, AbortSignal.timeout(categoryTimeoutMs));
            return reply.ok(Object.fromEntries(ids.map((id, index) => [id, marks[index] ?? null])), { 'Cache-Control': 'no-store' });
          } catch (error) {
            if (error instanceof CategoryCallError) throw asApiError(error);
            throw error;
          }
        },
      }),
    ],
  };
}
