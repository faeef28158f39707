import { mediaIds } from '../media-ids';
import { boolField, intField, jsonObject, numberField, progressOf, textField, YEARS } from '../payload-fields';
import { mediaServerEvent, NotServerFormatError, type EventKind, type MediaType, type ScrobbleEvent } from '../scrobble-event';

const MEDIA: Record<string, MediaType> = { Movie: 'movie', Episode: 'episode' };

function kindOf(payload: Record<string, unknown>): EventKind {
  switch (payload['NotificationType']) {
    case 'PlaybackStart':
      return 'start';
    case 'PlaybackStop':
      return boolField(payload['PlayedToCompletion']) ? 'played' : 'stop';
    case 'PlaybackProgress':
      return boolField(payload['IsPaused']) ? 'pause' : 'other';
    case 'UserDataSaved':
      // "Mark played" in a client saves the user data with this reason and Played set.
      return payload['SaveReason'] === 'TogglePlayed' && boolField(payload['Played']) ? 'played' : 'other';
    default:
      return 'other';
  }
}

/**
 * The Jellyfin Webhook plugin's JSON (its generic destination, whatever template variables it is given:
 * the names below are the plugin's own). An episode's `Provider_*` ids are the episode's, not the show's.
 */
export function parseJellyfin(body: string): ScrobbleEvent {
  const payload = jsonObject(body, 'a Jellyfin webhook');
  if (typeof payload['NotificationType'] !== 'string') throw new NotServerFormatError('the body is not a Jellyfin webhook: NotificationType is missing');
  const media = MEDIA[String(payload['ItemType'])] ?? 'other';
  const itemIds = mediaIds({ imdb: payload['Provider_imdb'], tmdb: payload['Provider_tmdb'], tvdb: payload['Provider_tvdb'] });
  return mediaServerEvent({
    kind: kindOf(payload),
    media,
    title: textField(payload['Name']),
    year: intField(payload['Year'], YEARS.min, YEARS.max),
    showTitle: textField(payload['SeriesName']),
    season: intField(payload['SeasonNumber'], 0, 10_000),
    number: intField(payload['EpisodeNumber'], 0, 10_000),
    itemIds,
    progress: progressOf(numberField(payload['PlaybackPositionTicks']), numberField(payload['RunTimeTicks'])),
    user: textField(payload['NotificationUsername'], 200),
  });
}
