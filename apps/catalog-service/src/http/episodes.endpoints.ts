import { defineEndpoint, PUBLIC, reply, scope, type Endpoint } from '@mt/endpoints';
import type { CategoryDefinition } from '../domain/categories';
import { MAX_EPISODE_NUMBER, MAX_EPISODES_PER_SEASON } from '../domain/episodes';
import { episodeSchemas as s } from '../features/episodes/episodes.schemas';
import type { EpisodesService } from '../features/episodes/episodes.service';

const COUNTED =
  'Season 0 holds the specials: listed, never counted — the show\'s `seasons` / `episodes` counts, `aired` and completion look at regular seasons (≥ 1) only.';

/** GET /{id}/episodes and PUT /{id}/seasons/{season}: only in categories whose definition is episodic. */
export function episodesEndpoints(category: CategoryDefinition, service: EpisodesService): Endpoint[] {
  return [
    defineEndpoint({
      name: 'list episodes',
      method: 'GET',
      path: '/{id}/episodes',
      access: PUBLIC,
      summary: `The episodes of one ${category.displayName} entry`,
      description: `Ordered by season, then number; \`season\` keeps one season. ${COUNTED} 404 when the show does not exist.`,
      params: s.ShowParams,
      query: s.EpisodesQuery,
      responses: { 200: { description: 'A page of episodes', schema: s.EpisodePage } },
      async handle({ params, query }) {
        return reply.ok(await service.list(params.id, query));
      },
    }),
    defineEndpoint({
      name: 'replace season',
      method: 'PUT',
      path: '/{id}/seasons/{season}',
      access: scope('catalog:write'),
      summary: 'Set the episodes of one season',
      description:
        `Replaces the season's episodes with the list sent (at most ${MAX_EPISODES_PER_SEASON}, numbers 1–${MAX_EPISODE_NUMBER} and unique; an empty list removes the season). ` +
        'An episode whose number stays keeps its id (its fields are replaced: a field not sent becomes null); the others are removed — plays that name a removed episode keep its season and number. ' +
        `The show's \`seasons\` and \`episodes\` follow in the same write. ${COUNTED} ` +
        'Like PATCH of the show: only its creator (403), or a credential holding `catalog:moderate`.',
      params: s.SeasonParams,
      body: s.PutSeason,
      responses: { 200: { description: "The season's episodes, by number", schema: s.EpisodeList } },
      async handle({ params, body, caller }) {
        return reply.ok(await service.replaceSeason(params.id, params.season, body.episodes, { userId: caller.userId, moderator: caller.scopes.includes('catalog:moderate') }));
      },
    }),
  ];
}
