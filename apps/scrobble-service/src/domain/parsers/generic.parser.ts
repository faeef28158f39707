import { z } from 'zod';
import { mediaIds } from '../media-ids';
import { jsonObject, YEARS } from '../payload-fields';
import { NotServerFormatError, type EventKind, type ScrobbleEvent } from '../scrobble-event';

const Ids = z.strictObject({ imdb: z.string().max(40).optional(), tmdb: z.string().max(40).optional(), tvdb: z.string().max(40).optional() });
const Index = z.number().int().min(0).max(10_000);

/** This API's own format (docs/api.md "Scrobbling from media servers"), for scripts and other players. */
export const GenericEventSchema = z
  .strictObject({
    event: z.enum(['start', 'stop', 'played']),
    type: z.enum(['movie', 'episode']),
    title: z.string().trim().min(1).max(300),
    year: z.number().int().min(YEARS.min).max(YEARS.max).optional(),
    show_title: z.string().trim().min(1).max(300).optional(),
    season: Index.optional(),
    episode: Index.optional(),
    progress: z.number().min(0).max(1).optional(),
    external_ids: Ids.optional(),
    episode_external_ids: Ids.optional(),
    user: z.string().trim().min(1).max(200).optional(),
    event_id: z.string().min(1).max(200).optional(),
  });

const KINDS: Record<z.infer<typeof GenericEventSchema>['event'], EventKind> = { start: 'start', stop: 'stop', played: 'played' };

export function parseGeneric(body: string): ScrobbleEvent {
  const parsed = GenericEventSchema.safeParse(jsonObject(body, 'a generic scrobble event'));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new NotServerFormatError(`the body is not a generic scrobble event: ${issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'invalid'}`);
  }
  const event = parsed.data;
  const episode = event.type === 'episode';
  return {
    kind: KINDS[event.event],
    media: event.type,
    title: event.title,
    year: event.year ?? null,
    showTitle: episode ? (event.show_title ?? null) : null,
    season: episode ? (event.season ?? null) : null,
    number: episode ? (event.episode ?? null) : null,
    ids: mediaIds(event.external_ids ?? {}),
    episodeIds: episode ? mediaIds(event.episode_external_ids ?? {}) : {},
    progress: event.progress ?? null,
    user: event.user ?? null,
    eventId: event.event_id ?? null,
  };
}
