import { idSchema, objectIdParam, timestampSchema, z } from '@mt/contracts';
import { SERVERS } from '../domain/scrobble-event';

const Server = z.enum(SERVERS).openapi({ description: 'The media server the hook receives events from' });

export const CreateHookRequestSchema = z
  .strictObject({
    server: Server,
    name: z.string().trim().min(1).max(100),
    usernames: z.array(z.string().trim().min(1).max(200)).max(50).optional().openapi({ description: 'Only events of these media-server users count (case-insensitive); absent or empty: all' }),
    threshold: z.number().int().min(50).max(100).optional().openapi({ description: 'Percent of the runtime a stop must reach to count as a play (default 90)' }),
  })
  .openapi('CreateScrobbleHookRequest');

export const HookSchema = z
  .object({
    id: idSchema(),
    server: Server,
    name: z.string(),
    usernames: z.array(z.string()),
    threshold: z.number().int(),
    created_at: timestampSchema(),
    last_event_at: timestampSchema().nullable(),
  })
  .openapi('ScrobbleHook');

export const CreatedHookSchema = HookSchema.extend({
  url: z.url().openapi({ description: 'The URL to give the media server; it holds the secret and is shown only in this answer' }),
}).openapi('CreatedScrobbleHook');

export const HookListSchema = z.array(HookSchema).openapi('ScrobbleHookList');

export const IdParamsSchema = z.strictObject({ id: objectIdParam() });

export const ReceiverParamsSchema = z.strictObject({
  server: z.string().max(200).openapi({ description: '`jellyfin`, `plex`, `emby` or `generic`' }),
  secret: z.string().max(200).openapi({ description: 'The secret of the hook (from its `url`)' }),
});

export const ReceiveResultSchema = z
  .object({
    outcome: z.enum(['recorded', 'watching', 'ignored', 'duplicate', 'unmatched', 'queued']),
    reason: z.string().optional(),
    item_id: idSchema().optional(),
    play_id: idSchema().optional(),
  })
  .openapi('ScrobbleResult');

const Ids = z.object({ imdb: z.string().optional(), tmdb: z.string().optional(), tvdb: z.string().optional() });

export const InboxEntrySchema = z
  .object({
    id: idSchema(),
    hook_id: idSchema(),
    server: Server,
    category: z.enum(['movies', 'tvshows']),
    title: z.string().nullable(),
    year: z.number().int().nullable(),
    season: z.number().int().nullable(),
    number: z.number().int().nullable(),
    external_ids: Ids,
    first_seen_at: timestampSchema(),
    last_seen_at: timestampSchema(),
    count: z.number().int().openapi({ description: 'Plays waiting for this entry' }),
  })
  .openapi('ScrobbleInboxEntry');

export const InboxListSchema = z.array(InboxEntrySchema).openapi('ScrobbleInbox');

export const ResolveRequestSchema = z
  .strictObject({ item_id: objectIdParam().openapi({ description: 'The catalog entry (a movie, or the episode’s show) the plays belong to' }) })
  .openapi('ResolveScrobbleInboxRequest');

export const ResolveResultSchema = z.object({ recorded: z.number().int() }).openapi('ResolveScrobbleInboxResult');
