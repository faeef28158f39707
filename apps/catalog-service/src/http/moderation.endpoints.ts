import { defineEndpoint, reply, scope, type Endpoint } from '@mt/endpoints';
import type { CategoryDefinition } from '../domain/categories';
import { catalogSchemas } from '../features/catalog/catalog.schemas';
import { EntryRemovalSchema, MergeEntrySchema } from '../features/moderation/moderation.schemas';
import type { ModerationService } from '../features/moderation/moderation.service';

/** The moderators' catalog endpoints: DELETE /api/v1/{category}/{id} and POST /api/v1/{category}/{id}/merge. */
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
        'Moderators and admins: a JWT of a user without the role gets 403 too. The entry and every list entry pointing at it are removed in one transaction: ' +
        '`list_entries_removed` counts them, and each removal is a `delete` in its owner\'s change feed and removes the entry\'s history. ' +
        'A list addition of the entry racing the removal is either removed with the others or answered 404. Unknown id: 404.',
      params: s.IdParams,
      responses: { 200: { description: 'The entry and its list entries were removed', schema: EntryRemovalSchema } },
      async handle({ params }) {
        return reply.ok(await service.remove(params.id));
      },
    }),
    defineEndpoint({
      name: 'merge entry',
      method: 'POST',
      path: '/{id}/merge',
      access: scope('catalog:moderate'),
      summary: 'Fold a duplicate into another entry (moderators)',
      description:
        'Moderators and admins. `{id}` is folded into `into`, in one transaction (a process killed mid-way leaves the old state or the new one): ' +
        'every list entry of `{id}` moves to `into` keeping its status, score, dates, notes and history; a user who has both keeps the one updated last and loses the other ' +
        '(each list\'s change feed records the merged id as deleted and, when the moved entry is kept, the survivor as upserted). External ids are combined; ' +
        'the same key with different values on the two entries is a 409 and nothing changes. The survivor keeps its own title and fields. ' +
        (category.episodic ? "Episodes of `{id}` join the survivor, matched by season and number (where both have one, the survivor's stays); its episode counts follow. " : '') +
        'Afterwards `GET /{id}` answers 301 with `Location` of the survivor, for good; PATCH, DELETE, merge and list additions of `{id}` are 404. ' +
        '`into` equal to `{id}` is a 400; an unknown `{id}` or `into` (a merged id included) is a 404.',
      params: s.IdParams,
      body: MergeEntrySchema,
      responses: { 200: { description: 'The surviving entry', schema: s.Entry } },
      errors: [409],
      async handle({ params, body }) {
        return reply.ok(await service.merge(params.id, body.into));
      },
    }),
  ];
}
