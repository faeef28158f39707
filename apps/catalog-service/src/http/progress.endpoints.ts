import { defineEndpoint, reply, scope, type Endpoint } from '@mt/endpoints';
import { progressSchemas as s } from '../features/progress/progress.schemas';
import { playSchemas } from '../features/plays/plays.schemas';
import type { ProgressService } from '../features/progress/progress.service';

/** GET /list/up-next and /list/{item_id}/progress: only in episodic categories. */
export function progressEndpoints(service: ProgressService, tag: string): Endpoint[] {
  const tags = [tag];
  return [
    defineEndpoint({
      name: 'get up next',
      method: 'GET',
      path: '/list/up-next',
      access: scope('list:read'),
      tags,
      summary: 'Your shows with an aired episode to watch next',
      description:
        'Your `watching` shows whose next episode (the first regular one without a play in the current cycle) has aired, most recently played first (shows never played with a known date last). ' +
        'Cursor pages: `cursor=start` (or none), then each `next_cursor`. A page costs the same whatever the number of your plays.',
      query: s.UpNextQuery,
      responses: { 200: { description: 'A page of shows', schema: s.UpNextPage } },
      async handle({ query, caller }) {
        return reply.ok(await service.upNext(caller.userId, query));
      },
    }),
    defineEndpoint({
      name: 'get progress',
      method: 'GET',
      path: '/list/{item_id}/progress',
      access: scope('list:read'),
      tags,
      summary: 'Where you are in a show',
      description:
        'In the entry\'s current cycle: `aired` and `completed` count regular episodes (specials are listed in season 0 but not counted), `next_episode` is the first regular episode without a play (aired or not; null when every one has one). ' +
        '404 when the show is not on your list.',
      params: playSchemas.ItemParams,
      responses: { 200: { description: 'The show\'s progress', schema: s.Progress } },
      async handle({ params, caller }) {
        return reply.ok(await service.progress(caller.userId, params.item_id));
      },
    }),
  ];
}
