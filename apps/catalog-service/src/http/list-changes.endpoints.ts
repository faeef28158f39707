import { defineEndpoint, reply, scope, type Endpoint } from '@mt/endpoints';
import { FEED_RETENTION_DAYS } from '../domain/feed-retention';
import { changesSchemas as s } from '../features/list-changes/list-changes.schemas';
import type { ListChangesService } from '../features/list-changes/list-changes.service';

const FEED = `Every acknowledged write to your list (add, change, remove, bulk-status, bulk-delete, and removals by moderators) in commit order. Apply the changes in order and keep \`next_since\`: a replay from the beginning ends with exactly your list. The feed is compacted per entry: when an entry changed several times since \`since\`, only its latest state is sent (once); an entry removed and added again is sent as its deletion, then its entry. Deletions are kept at least ${FEED_RETENTION_DAYS} days; a \`since\` older than that, or one issued by an earlier version of the feed (once, after an upgrade), is a 410 \`cursor_expired\` (re-read the list, then start again without \`since\`).`;

/** The change feed of the caller's list. Declared before /list/{item_id}. */
export function listChangesEndpoints(service: ListChangesService, tag: string): Endpoint[] {
  return [
    defineEndpoint({
      name: 'get list changes',
      method: 'GET',
      path: '/list/changes',
      access: scope('list:read'),
      tags: [tag],
      summary: 'Changes of your list since a position',
      description: FEED,
      query: s.ChangesQuery,
      responses: { 200: { description: 'A page of changes', schema: s.ChangesPage } },
      errors: [410],
      async handle({ query, caller }) {
        return reply.ok(await service.page(caller.userId, query));
      },
    }),
  ];
}
