import { defineEndpoint, reply, scope, type Endpoint } from '@mt/endpoints';
import type { CategoryDefinition } from '../categories/categories';
import { catalogSchemas } from '../catalog/catalog.schemas';
import { EntryRemovalSchema } from './moderation.schemas';
import type { ModerationService } from './moderation.service';

/** The moderators' catalog endpoints (API.md §13): DELETE /api/v1/{category}/{id}. */
export function moderationEndpoints(category: CategoryDefinition, service: ModerationService): Endpoint[] {
  const s = catalogSchemas(category);
  return [
    defineEndpoint({
      name: 'delete entry',
      method: 'DELETE',
      path: '/{id}',
      access: scope('catalog:moderate'),
      summary: 'Remove a catalog entry (moderators)',
      description:
        'Moderators and admins (API.md §13): a JWT of a user without the role gets 403 too. The entry and every list entry pointing at it are removed in one transaction: ' +
        '`list_entries_removed` counts them, and each removal is a `delete` in its owner\'s change feed (API.md §10) and removes the entry\'s history. ' +
        'A list addition of the entry racing the removal is either removed with the others or answered 404. Unknown id: 404.',
      params: s.IdParams,
      responses: { 200: { description: 'The entry and its list entries were removed', schema: EntryRemovalSchema } },
      async handle({ params }) {
        return reply.ok(await service.remove(params.id));
      },
    }),
  ];
}
