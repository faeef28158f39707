import { MessageSchema } from '@mt/contracts';
import { defineEndpoint, PUBLIC, reply, scope, type EndpointGroup } from '@mt/endpoints';
import { errors } from '@mt/errors';
import type { Hook, InboxEntry } from '../domain/ports';
import { isServer } from '../domain/scrobble-event';
import type { HooksService } from '../features/hooks/hooks.service';
import type { InboxService } from '../features/inbox/inbox.service';
import type { ReceiverService } from '../features/receiving/receiver.service';
import { publicBaseUrl } from './public-base-url';
import {
  CreatedHookSchema,
  CreateHookRequestSchema,
  HookListSchema,
  IdParamsSchema,
  InboxListSchema,
  ReceiverParamsSchema,
  ReceiveResultSchema,
  ResolveRequestSchema,
  ResolveResultSchema,
} from './scrobble.schemas';
import { readWebhookBody, WEBHOOK_MULTIPART_LIMIT_BYTES } from './webhook-body';

export const SCROBBLE_SERVICE = 'scrobble';

export interface ScrobbleServices {
  hooks: HooksService;
  receiver: ReceiverService;
  inbox: InboxService;
  /** PUBLIC_URL, when configured. */
  publicUrl?: string;
}

const toHook = (hook: Hook) => ({
  id: hook.id,
  server: hook.server,
  name: hook.name,
  usernames: hook.usernames,
  threshold: hook.threshold,
  created_at: hook.createdAt.toISOString(),
  last_event_at: hook.lastEventAt?.toISOString() ?? null,
});

const toInboxEntry = (entry: InboxEntry) => ({
  id: entry.id,
  hook_id: entry.hookId,
  server: entry.server,
  category: entry.category,
  title: entry.title,
  year: entry.year,
  season: entry.season,
  number: entry.number,
  external_ids: entry.externalIds,
  first_seen_at: entry.firstSeenAt.toISOString(),
  last_seen_at: entry.lastSeenAt.toISOString(),
  count: entry.count,
});

/** Every public endpoint of the scrobble service: the router, the OpenAPI fragment and the route manifest derive from this list. */
export function scrobbleEndpoints({ hooks, receiver, inbox, publicUrl }: ScrobbleServices): EndpointGroup {
  return {
    namespace: SCROBBLE_SERVICE,
    mount: `/api/v1/${SCROBBLE_SERVICE}`,
    tags: [{ name: 'scrobble', description: 'Scrobbling: media servers (Jellyfin, Plex, Emby, scripts) record what you watch' }],
    endpoints: [
      defineEndpoint({
        name: 'list hooks',
        method: 'GET',
        path: '/hooks',
        access: scope('account'),
        summary: 'Your scrobble hooks',
        description: 'Newest first. Never includes the secret or the URL.',
        responses: { 200: { description: 'The hooks', schema: HookListSchema } },
        async handle({ caller }) {
          return reply.ok((await hooks.list(caller.userId)).map(toHook));
        },
      }),
      defineEndpoint({
        name: 'create hook',
        method: 'POST',
        path: '/hooks',
        access: scope('account'),
        summary: 'Create a scrobble hook for a media server',
        description:
          'The answer’s `url` (the public base URL of the deployment, or the origin of this request, + `/api/v1/scrobble/<server>/<secret>`) is shown only here: only a hash of the secret is stored. At most 20 hooks per user (409).',
        body: CreateHookRequestSchema,
        responses: { 201: { description: 'The hook, with its URL (shown only here)', schema: CreatedHookSchema } },
        errors: [409],
        async handle({ body, caller, req }) {
          const { hook, url } = await hooks.create(caller.userId, body, publicBaseUrl(req, publicUrl));
          return reply.created({ ...toHook(hook), url }, undefined, { 'Cache-Control': 'no-store' });
        },
      }),
      defineEndpoint({
        name: 'delete hook',
        method: 'DELETE',
        path: '/hooks/{id}',
        access: scope('account'),
        summary: 'Delete a scrobble hook',
        description: 'Its URL stops working at once (401).',
        params: IdParamsSchema,
        responses: { 200: { description: 'Deleted', schema: MessageSchema } },
        async handle({ params, caller }) {
          await hooks.delete(caller.userId, params.id);
          return reply.ok({ message: 'hook deleted' });
        },
      }),
      defineEndpoint({
        name: 'list unmatched',
        method: 'GET',
        path: '/unmatched',
        access: scope('list:read'),
        summary: 'Scrobbled plays that matched no catalog entry',
        description: 'One entry per hook and item (or episode), most recently seen first; `count` plays wait for it.',
        responses: { 200: { description: 'The inbox', schema: InboxListSchema } },
        async handle({ caller }) {
          return reply.ok((await inbox.list(caller.userId)).map(toInboxEntry));
        },
      }),
      defineEndpoint({
        name: 'resolve unmatched',
        method: 'POST',
        path: '/unmatched/{id}/resolve',
        access: scope('list:write'),
        summary: 'Record an inbox entry’s plays against a catalog entry',
        description:
          'Records the waiting plays against `item_id` (a movie, or for an episode its show: the episode is found by season and number), remembers the choice for the hook’s later events of the same movie or show, and removes the entry. 404 when the item (or episode) is not in the catalog.',
        params: IdParamsSchema,
        body: ResolveRequestSchema,
        responses: { 200: { description: 'Recorded', schema: ResolveResultSchema } },
        async handle({ params, body, caller }) {
          return reply.ok(await inbox.resolve(caller.userId, params.id, body.item_id));
        },
      }),
      defineEndpoint({
        name: 'dismiss unmatched',
        method: 'DELETE',
        path: '/unmatched/{id}',
        access: scope('list:write'),
        summary: 'Dismiss an inbox entry',
        description: 'Its waiting plays are dropped.',
        params: IdParamsSchema,
        responses: { 200: { description: 'Dismissed', schema: MessageSchema } },
        async handle({ params, caller }) {
          await inbox.dismiss(caller.userId, params.id);
          return reply.ok({ message: 'inbox entry dismissed' });
        },
      }),
      defineEndpoint({
        name: 'receive event',
        method: 'POST',
        path: '/{server}/{secret}',
        access: PUBLIC,
        summary: 'Receive a media server’s webhook',
        description:
          'No bearer: the secret in the path authenticates (an unknown or deleted one is a 401). Jellyfin: its Webhook plugin’s JSON (also as `text/plain`); Plex: `multipart/form-data` with the JSON in `payload` (a poster part is skipped); Emby: the JSON in the `data` field (`multipart/form-data` or `application/x-www-form-urlencoded`) or as the body; generic: this API’s JSON. A body that is not that server’s format is a 400; JSON over 1 MiB a 413; over 600 events a minute per hook a 429. The answer says what became of the event; plays are matched and recorded from a durable queue (`queued`).',
        params: ReceiverParamsSchema,
        rawBody: { contentTypes: ['*/*'], limitBytes: WEBHOOK_MULTIPART_LIMIT_BYTES, description: 'The media server’s webhook body, as it sends it' },
        responses: { 202: { description: 'Accepted: what became of the event', schema: ReceiveResultSchema } },
        errors: [401, 429],
        async handle({ params, req }) {
          if (!isServer(params.server)) throw errors.notFound('unknown media server: use jellyfin, plex, emby or generic');
          const hook = await receiver.authenticate(params.server, params.secret);
          return reply.status(202, await receiver.receive(hook, () => readWebhookBody(req, hook.server)));
        },
      }),
    ],
  };
}
