import { mediaIds } from '../media-ids';
import { intField, isRecord, jsonObject, numberField, progressOf, textField, YEARS } from '../payload-fields';
import { mediaServerEvent, NotServerFormatError, type EventKind, type MediaType, type ScrobbleEvent } from '../scrobble-event';

const KINDS: Record<string, EventKind> = {
  'media.play': 'start',
  'media.resume': 'start',
  'media.pause': 'pause',
  'media.stop': 'stop',
  'media.scrobble': 'played',
};
const MEDIA: Record<string, MediaType> = { movie: 'movie', episode: 'episode' };

/** `Guid: [{ id: "imdb://tt…" }, { id: "tmdb://…" }, { id: "tvdb://…" }]` (Plex's newer agents). */
function guidIds(guids: unknown) {
  const found: Record<string, string> = {};
  for (const guid of Array.isArray(guids) ? guids.slice(0, 20) : []) {
    const id = isRecord(guid) ? guid['id'] : undefined;
    const match = typeof id === 'string' ? /^(imdb|tmdb|tvdb):\/\/(.{1,40})$/.exec(id) : null;
    if (match) found[match[1] as string] = match[2] as string;
  }
  return mediaIds(found);
}

/** The JSON of a Plex webhook's `payload` part. Plex sends an episode's own ids in its Guid list. */
export function parsePlex(body: string): ScrobbleEvent {
  const payload = jsonObject(body, 'a Plex webhook payload');
  const event = payload['event'];
  if (typeof event !== 'string') throw new NotServerFormatError('the body is not a Plex webhook payload: event is missing');
  const metadata = isRecord(payload['Metadata']) ? payload['Metadata'] : {};
  const account = isRecord(payload['Account']) ? payload['Account'] : {};
  const media = MEDIA[String(metadata['type'])] ?? 'other';
  const itemIds = guidIds(metadata['Guid']);
  return mediaServerEvent({
    kind: KINDS[event] ?? 'other',
    media,
    title: textField(metadata['title']),
    year: intField(metadata['year'], YEARS.min, YEARS.max),
    showTitle: textField(metadata['grandparentTitle']),
    season: intField(metadata['parentIndex'], 0, 10_000),
    number: intField(metadata['index'], 0, 10_000),
    itemIds,
    progress: progressOf(numberField(metadata['viewOffset']), numberField(metadata['duration'])),
    user: textField(account['title'], 200),
  });
}
