import { MessageSchema } from '@mt/contracts';
import { defineEndpoint, reply, scope, type Endpoint } from '@mt/endpoints';
import { MAX_BATCH_ITEMS, MAX_BATCH_PLAYS } from '../domain/plays';
import { playSchemas as s } from '../features/plays/plays.schemas';
import type { PlaysService } from '../features/plays/plays.service';
import type { PlayBatch } from '../features/plays/play-batch';

const FOLLOWS =
  'Status and progress follow plays (a manual status change still wins): a play fills an empty `started_at` with its date (today when unknown) and moves `plan_to_watch` to `watching`; ' +
  'a play of a movie or a book completes the entry (`finished_at` = the latest play\'s date; a later `started_at` moves back to it); a show is completed when every aired episode of its regular seasons ' +
  '(`air_date` ≤ today) has a play in the current cycle, and its `progress` counts the distinct regular episodes played in the cycle. Removing a play counts a show\'s progress again; a completed show ' +
  'that is no longer complete goes back to `watching`. The plays, the entry and the change feed record are written in one transaction.';
const ORDER = 'Newest `watched_at` first, unknown last, ties by `created_at` (newest first); cursor pages: `cursor=start` (or none), then each `next_cursor` until it is null.';

/** The plays of the caller's list: /list/plays (diary, batch) first, then /list/{item_id}/plays and rewatch. */
export function playsEndpoints(service: PlaysService, batch: PlayBatch, tag: string): Endpoint[] {
  const tags = [tag];
  return [
    defineEndpoint({
      name: 'get diary',
      method: 'GET',
      path: '/list/plays',
      access: scope('list:read'),
      tags,
      summary: 'Your diary: plays across the category',
      description: `\`from\` and \`to\` are days (UTC), both inclusive; with either, plays of unknown date are left out. ${ORDER} Each play carries its item \`{ id, title, year }\`.`,
      query: s.DiaryQuery,
      responses: { 200: { description: 'A page of plays', schema: s.DiaryPage } },
      async handle({ query, caller }) {
        return reply.ok(await service.diary(caller.userId, query));
      },
    }),
    defineEndpoint({
      name: 'add plays in batch',
      method: 'POST',
      path: '/list/plays/batch',
      access: scope('list:write'),
      tags,
      summary: 'Record plays of many items (Trakt-like history)',
      description:
        `At most ${MAX_BATCH_ITEMS} items and ${MAX_BATCH_PLAYS} plays in all (else 400, nothing written). Each item names its work by \`item_id\` or \`external_ids\` and takes the fields of a single POST. ` +
        'Each item is applied whole or not at all, in its own transaction: an unknown item, external id, episode or season (or a `release` play whose date is unknown) makes that item a `not_found` entry `{ index, reason }` and the others are applied. ' +
        'Plays already recorded (same `source_event_id`, or the same episode at the same instant) count in `existing`.',
      body: s.PlaysBatch,
      responses: { 200: { description: 'What was added', schema: s.BatchResult } },
      async handle({ body, caller }) {
        return reply.ok(await batch.record(caller.userId, body.items, 'manual'));
      },
    }),
    defineEndpoint({
      name: 'get plays',
      method: 'GET',
      path: '/list/{item_id}/plays',
      access: scope('list:read'),
      tags,
      summary: 'The plays of one entry of your list',
      description: `${ORDER} Plays of every cycle are listed. 404 when the entry is not on your list.`,
      params: s.ItemParams,
      query: s.PlaysQuery,
      responses: { 200: { description: 'A page of plays', schema: s.PlaysPage } },
      async handle({ params, query, caller }) {
        return reply.ok(await service.list(caller.userId, params.item_id, query));
      },
    }),
    defineEndpoint({
      name: 'add plays',
      method: 'POST',
      path: '/list/{item_id}/plays',
      access: scope('list:write'),
      tags,
      summary: 'Record that you watched (or read) it',
      description:
        'Without episode fields: one play of the work (movies, books). Shows name `episodes` (by season and number, or id), `seasons` (their aired episodes) or `all_aired` (every aired regular episode); these are tvshows only (400 elsewhere), ' +
        'and an episode or season the show does not have is a 404 naming it. The whole request is checked before anything is written. The item joins your list (status `watching`) when it is not on it. ' +
        `The same \`source_event_id\` twice adds nothing the second time; so does the same episode at the same instant. ${FOLLOWS}`,
      params: s.ItemParams,
      body: s.AddPlays,
      responses: { 201: { description: 'The plays added, and how many were already recorded', schema: s.PlaysAdded } },
      async handle({ params, body, caller }) {
        return reply.created(await service.record(caller.userId, params.item_id, body, 'manual'));
      },
    }),
    defineEndpoint({
      name: 'remove play',
      method: 'DELETE',
      path: '/list/{item_id}/plays/{play_id}',
      access: scope('list:write'),
      tags,
      summary: 'Remove one play',
      description: `404 when the play is not one of this entry's. ${FOLLOWS}`,
      params: s.PlayParams,
      responses: { 200: { description: 'Removed', schema: MessageSchema } },
      async handle({ params, caller }) {
        return reply.ok(await service.remove(caller.userId, params.item_id, params.play_id));
      },
    }),
    defineEndpoint({
      name: 'start rewatch',
      method: 'POST',
      path: '/list/{item_id}/rewatch',
      access: scope('list:write'),
      tags,
      summary: 'Watch (or read) it again',
      description:
        'From `completed` or `dropped` (409 from any other status): a new cycle — `cycle` + 1, `repeat_count` + 1, status `watching`, `progress` 0, `started_at` today, `finished_at` null. Earlier plays are kept and still listed; new plays count in the new cycle.',
      params: s.ItemParams,
      responses: { 200: { description: 'The entry in its new cycle', schema: s.ListEntry } },
      errors: [409],
      async handle({ params, caller }) {
        return reply.ok(await service.rewatch(caller.userId, params.item_id));
      },
    }),
  ];
}
