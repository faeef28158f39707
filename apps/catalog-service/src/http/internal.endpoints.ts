import { idSchema, objectIdParam, z } from '@mt/contracts';
import { defineEndpoint, INTERNAL, reply, type Endpoint, type EndpointGroup } from '@mt/endpoints';
import { errors } from '@mt/errors';
import { queryInt } from '@mt/validation';
import { EPISODE_EXTERNAL_ID_KEYS, MAX_EPISODE_NUMBER, MAX_SEASON } from '../domain/episodes';
import { playSchemas } from '../features/plays/plays.schemas';
import { listSchemas } from '../features/list/list.schemas';
import type { CategoryDefinition } from '../domain/categories';
import type { PlaysService } from '../features/plays/plays.service';
import type { EpisodesService } from '../features/episodes/episodes.service';
import type { ProviderMatchService } from '../features/providers/provider-match.service';
import { YEAR_MAX, YEAR_MIN } from '../domain/catalog-query';
import { IMDB_ID, TMDB_ID, TVDB_ID } from '@mt/domain';

const SCROBBLE_SOURCE = /^scrobble:[a-z0-9][a-z0-9._-]{0,49}$/;
const EPISODE_ID_FORMATS = { imdb: IMDB_ID, tmdb: TMDB_ID, tvdb: TVDB_ID } as const;

const ScrobblePlays = z.strictObject({
  ...playSchemas.playFields,
  source: z.string().regex(SCROBBLE_SOURCE, 'must be scrobble:<server> (lower-case letters, digits, . _ -)'),
  start_only: z.literal(true).optional(),
});

const EpisodeLookupQuery = z
  .strictObject({
    external_id: z
      .string()
      .max(100)
      .transform((raw, ctx) => {
        const [key = '', value = ''] = raw.split(/:(.*)/s);
        const format = (EPISODE_ID_FORMATS as Record<string, { pattern: RegExp } | undefined>)[key];
        if (!format || !format.pattern.test(value)) {
          ctx.addIssue({ code: 'custom', message: `must be key:value with key one of ${EPISODE_EXTERNAL_ID_KEYS.join(', ')} and a value in its format` });
          return z.NEVER;
        }
        return { key, value };
      })
      .optional(),
    show_id: objectIdParam().optional(),
    season: queryInt(0, MAX_SEASON).optional(),
    number: queryInt(1, MAX_EPISODE_NUMBER).optional(),
  })
  .superRefine((query, ctx) => {
    const byPlace = [query.show_id, query.season, query.number].filter((value) => value !== undefined).length;
    if ((query.external_id === undefined) === (byPlace === 0) || (byPlace > 0 && byPlace < 3)) {
      ctx.addIssue({ code: 'custom', path: ['external_id'], message: 'give external_id, or show_id with season and number' });
    }
  });

/** A work as a media server names it; at most a handful of ids, each as short as an id is. */
const ProviderMatchBody = z.strictObject({
  title: z.string().trim().min(1).max(300).nullable(),
  year: z.number().int().min(YEAR_MIN).max(YEAR_MAX).nullable(),
  external_ids: z
    .record(z.string().regex(/^[a-z][a-z0-9_]{0,19}$/), z.string().min(1).max(100))
    .refine((ids) => Object.keys(ids).length <= 10, 'at most 10 ids'),
});

const ProviderMatchFound = z.object({ item_id: idSchema().nullable(), created: z.boolean() });

const EpisodeFound = z.object({ item_id: idSchema(), episode: z.object({ id: idSchema(), season: z.number().int(), number: z.number().int() }) });

/**
 * What the scrobble service calls (internal secret; never routed by the gateway, which routes only the
 * manifest of public endpoints): record plays under the hook owner's signed identity, find episodes, and add
 * a played work the catalog lacks from the category's providers.
 */
export function internalEndpoints(category: CategoryDefinition, plays: PlaysService, episodes: EpisodesService | null, providerMatch: ProviderMatchService): EndpointGroup {
  const endpoints: Endpoint[] = [
    defineEndpoint({
      name: 'record scrobbled plays',
      method: 'POST',
      path: '/list/{item_id}/plays',
      access: INTERNAL,
      summary: 'Record plays for the signed identity (scrobbles)',
      description: 'As the public POST plays, with `source` required. `start_only`: the item joins the list as `watching` when it is not on it, and no play is written.',
      params: playSchemas.ItemParams,
      body: ScrobblePlays,
      responses: {
        200: { description: 'start_only: the entry, and whether it was added', schema: z.object({ entry: listSchemas.ListEntry, created: z.boolean() }) },
        201: { description: 'The plays added', schema: playSchemas.PlaysAdded },
      },
      async handle({ params, body, caller }) {
        // The secret says which service calls; the signed identity says for whom.
        if (!caller) throw errors.unauthorized('a signed identity is required');
        if (body.start_only) return reply.ok(await plays.start(caller.userId, params.item_id));
        const { source, watched_at, episodes: named, seasons, all_aired, source_event_id } = body;
        return reply.created(await plays.record(caller.userId, params.item_id, { watched_at, episodes: named, seasons, all_aired, source_event_id }, source));
      },
    }),
    defineEndpoint({
      name: 'match at providers',
      method: 'POST',
      path: '/providers/match',
      access: INTERNAL,
      summary: 'Add a played work the catalog lacks from the metadata providers (scrobbles)',
      description:
        "Found by one of its ids, else by its exact title (and `year` when given); a title several works share finds nothing. The entry is created by the signed identity; an entry holding the work already is answered (`created: false`). `item_id: null` when no provider finds it; a failing provider is a 502.",
      body: ProviderMatchBody,
      responses: { 200: { description: 'The entry of the work, or null', schema: ProviderMatchFound } },
      errors: [502],
      async handle({ body, caller }) {
        if (!caller) throw errors.unauthorized('a signed identity is required');
        const found = await providerMatch.match(body, caller.userId);
        return reply.ok(found ?? { item_id: null, created: false });
      },
    }),
  ];
  if (episodes) {
    endpoints.push(
      defineEndpoint({
        name: 'look up episode',
        method: 'GET',
        path: '/episodes/lookup',
        access: INTERNAL,
        summary: 'Find an episode by external id or by its place in a show',
        query: EpisodeLookupQuery,
        responses: { 200: { description: 'The episode and its show', schema: EpisodeFound } },
        async handle({ query }) {
          return reply.ok(await episodes.lookup(query));
        },
      }),
    );
  }
  return { namespace: `${category.id}Internal`, mount: `/internal/${category.id}`, tags: [{ name: 'internal', description: 'Service-to-service calls' }], endpoints };
}
