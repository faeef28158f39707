import { mediaIds } from '../media-ids';
import { boolField, intField, isRecord, jsonObject, numberField, progressOf, textField, YEARS } from '../payload-fields';
import { mediaServerEvent, NotServerFormatError, type EventKind, type MediaType, type ScrobbleEvent } from '../scrobble-event';

const MEDIA: Record<string, MediaType> = { Movie: 'movie', Episode: 'episode' };

function kindOf(event: string, playback: Record<string, unknown>): EventKind {
  switch (event) {
    case 'playback.start':
    case 'playback.unpause':
      return 'start';
    case 'playback.pause':
      return 'pause';
    case 'playback.stop':
      return boolField(playback['PlayedToCompletion']) ? 'played' : 'stop';
    case 'item.markplayed':
      return 'played';
    default:
      return 'other';
  }
}

/** The JSON of an Emby webhook (the `data` field of its form body, or the body itself). */
export function parseEmby(body: string): ScrobbleEvent {
  const payload = jsonObject(body, 'an Emby webhook');
  const event = payload['Event'];
  if (typeof event !== 'string') throw new NotServerFormatError('the body is not an Emby webhook: Event is missing');
  const item = isRecord(payload['Item']) ? payload['Item'] : {};
  const user = isRecord(payload['User']) ? payload['User'] : {};
  const playback = isRecord(payload['PlaybackInfo']) ? payload['PlaybackInfo'] : {};
  const providers = isRecord(item['ProviderIds']) ? item['ProviderIds'] : {};
  const media = MEDIA[String(item['Type'])] ?? 'other';
  const itemIds = mediaIds({ imdb: providers['Imdb'] ?? providers['IMDB'], tmdb: providers['Tmdb'], tvdb: providers['Tvdb'] });
  return mediaServerEvent({
    kind: kindOf(event, playback),
    media,
    title: textField(item['Name']),
    year: intField(item['ProductionYear'], YEARS.min, YEARS.max),
    showTitle: textField(item['SeriesName']),
    season: intField(item['ParentIndexNumber'], 0, 10_000),
    number: intField(item['IndexNumber'], 0, 10_000),
    itemIds,
    progress: progressOf(numberField(playback['PositionTicks']), numberField(item['RunTimeTicks'])),
    user: textField(user['Name'], 200),
  });
}
