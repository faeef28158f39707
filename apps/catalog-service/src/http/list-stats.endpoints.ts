import { defineEndpoint, reply, scope, type Endpoint } from '@mt/endpoints';
import { ListStatsSchema } from '../features/list-stats/list-stats.schemas';
import type { ListStatsService } from '../features/list-stats/list-stats.service';

/** Statistics of the caller's list. Declared before /list/{item_id}. */
export function listStatsEndpoints(service: ListStatsService, tag: string): Endpoint[] {
  return [
    defineEndpoint({
      name: 'get list stats',
      method: 'GET',
      path: '/list/stats',
      access: scope('list:read'),
      tags: [tag],
      summary: 'Statistics of your list',
      description: 'Totals by status, the score histogram and mean, the progress total and completions by year. Exact at the moment of reading; the same cost for any size of list.',
      responses: { 200: { description: 'The statistics', schema: ListStatsSchema } },
      async handle({ caller }) {
        return reply.ok(await service.stats(caller.userId));
      },
    }),
  ];
}
