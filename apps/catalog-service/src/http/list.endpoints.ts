import { MessageSchema } from '@mt/contracts';
import { defineEndpoint, reply, scope, type Endpoint } from '@mt/endpoints';
import { listSchemas as s } from '../features/list/list.schemas';
import { MAX_BULK_IDS } from '../domain/list-entry';
import type { ListService } from '../features/list/list.service';

const OWN = "Each user sees and changes only their own list; another user's entry is a 404.";
const BULK = `The request is validated as a whole (an invalid id, a duplicate, an empty list or more than ${MAX_BULK_IDS} ids → 400 and nothing changes), then applied atomically to every listed entry you have; ids not on your list are reported in \`not_found\`.`;

/** The caller's list: /list, /list/{item_id}, /bulk-status, /bulk-delete. */
export function listEndpoints(service: ListService, tag: string): Endpoint[] {
  const tags = [tag];
  return [
    defineEndpoint({
      name: 'get list',
      method: 'GET',
      path: '/list',
      access: scope('list:read'),
      tags,
      summary: 'Your list',
      description: OWN,
      query: s.ListQuery,
      responses: { 200: { description: 'A page of list entries', schema: s.ListEntryPage } },
      async handle({ query, caller }) {
        return reply.ok(await service.page(caller.userId, query));
      },
    }),
    defineEndpoint({
      name: 'get list entry',
      method: 'GET',
      path: '/list/{item_id}',
      access: scope('list:read'),
      tags,
      summary: 'One entry of your list',
      description: OWN,
      params: s.ItemIdParams,
      responses: { 200: { description: 'The list entry', schema: s.ListEntry } },
      async handle({ params, caller }) {
        return reply.ok(await service.get(caller.userId, params.item_id));
      },
    }),
    defineEndpoint({
      name: 'get list entry history',
      method: 'GET',
      path: '/list/{item_id}/history',
      access: scope('list:read'),
      tags,
      summary: 'The status, score and progress changes of one entry of your list',
      description: `${OWN} Newest first; at most 1000 changes are kept per entry (the oldest go first). Adding the entry counts as a change from null of each field it set; removing the entry removes its history.`,
      params: s.ItemIdParams,
      responses: { 200: { description: 'The changes, newest first', schema: s.ListEntryHistory } },
      async handle({ params, caller }) {
        return reply.ok(await service.history(caller.userId, params.item_id));
      },
    }),
    defineEndpoint({
      name: 'add list entry',
      method: 'POST',
      path: '/list',
      access: scope('list:write'),
      tags,
      summary: 'Add a catalog entry to your list',
      description: '404 when the catalog entry does not exist; 409 when it is already on your list.',
      body: s.AddListEntry,
      responses: { 201: { description: 'The new list entry', schema: s.ListEntry } },
      errors: [404, 409],
      async handle({ body, caller }) {
        return reply.created(await service.add(caller.userId, body));
      },
    }),
    defineEndpoint({
      name: 'update list entry',
      method: 'PATCH',
      path: '/list/{item_id}',
      access: scope('list:write'),
      tags,
      summary: 'Change an entry of your list',
      description: `${OWN} A 409 only if the entry kept changing concurrently.`,
      params: s.ItemIdParams,
      body: s.PatchListEntry,
      responses: { 200: { description: 'The updated list entry', schema: s.ListEntry } },
      errors: [409],
      async handle({ params, body, caller }) {
        return reply.ok(await service.update(caller.userId, params.item_id, body));
      },
    }),
    defineEndpoint({
      name: 'remove list entry',
      method: 'DELETE',
      path: '/list/{item_id}',
      access: scope('list:write'),
      tags,
      summary: 'Remove an entry from your list',
      description: OWN,
      params: s.ItemIdParams,
      responses: { 200: { description: 'Removed', schema: MessageSchema } },
      async handle({ params, caller }) {
        return reply.ok(await service.remove(caller.userId, params.item_id));
      },
    }),
    defineEndpoint({
      name: 'bulk update status',
      method: 'POST',
      path: '/bulk-status',
      access: scope('list:write'),
      tags,
      summary: 'Move many list entries to one status',
      description: `${BULK} \`updated\` counts the matched entries, including those already in the target status. A move that would put an entry's finish date before its start date is a 400 for the whole request.`,
      body: s.BulkStatus,
      responses: { 200: { description: 'How many entries matched, and the ids not on your list', schema: s.BulkStatusResult } },
      async handle({ body, caller }) {
        return reply.ok(await service.bulkStatus(caller.userId, body.item_ids, body.status));
      },
    }),
    defineEndpoint({
      name: 'bulk remove list entries',
      method: 'POST',
      path: '/bulk-delete',
      access: scope('list:write'),
      tags,
      summary: 'Remove many entries from your list',
      description: BULK,
      body: s.BulkDelete,
      responses: { 200: { description: 'How many entries were removed, and the ids not on your list', schema: s.BulkDeleteResult } },
      async handle({ body, caller }) {
        return reply.ok(await service.bulkDelete(caller.userId, body.item_ids));
      },
    }),
  ];
}
