import { fakeThumbnail, fixtureObject, multipartBody } from './fixtures';
import { call, type Answer } from './scrobble-stack';

export type ServerName = 'jellyfin' | 'plex' | 'emby' | 'generic';

/** A request body as the server sends it: Jellyfin JSON as text/plain, Plex multipart with a poster, Emby a form. */
export function encodeFor(server: ServerName, payload: Record<string, unknown>, variant: 'default' | 'alternate' = 'default'): { body: Buffer | string; contentType: string } {
  const json = JSON.stringify(payload);
  switch (server) {
    case 'jellyfin':
      return { body: json, contentType: variant === 'default' ? 'text/plain; charset=utf-8' : 'application/json' };
    case 'plex':
      return multipartBody({ payload: json }, { name: 'thumb', filename: 'poster.jpg', contentType: 'image/jpeg', data: fakeThumbnail(200_000) });
    case 'emby':
      return variant === 'default' ? multipartBody({ data: json }) : { body: new URLSearchParams({ data: json }).toString(), contentType: 'application/x-www-form-urlencoded' };
    case 'generic':
      return { body: json, contentType: 'application/json' };
  }
}

export function sendEvent(baseUrl: string, hookUrl: string, server: ServerName, payload: Record<string, unknown>, variant?: 'default' | 'alternate'): Promise<Answer> {
  const { body, contentType } = encodeFor(server, payload, variant);
  return call(baseUrl, 'POST', new URL(hookUrl).pathname, { body, contentType });
}

/** What each server sends for the same situations, built from the recorded payloads (test/fixtures). */
export interface MovieEvent {
  kind: 'played' | 'start' | 'pause' | 'stop-early';
  title: string;
  year: number;
  ids: { imdb?: string; tmdb?: string };
  user?: string;
  eventId?: string;
}

export interface EpisodeEvent {
  kind: 'played' | 'start';
  show: string;
  season: number;
  number: number;
  episodeIds: { tvdb?: string; imdb?: string };
  showIds?: { tvdb?: string };
  user?: string;
}

const ticks = (fraction: number, total: number) => Math.round(fraction * total);

export function moviePayload(server: ServerName, event: MovieEvent): Record<string, unknown> {
  const user = event.user ?? 'alice';
  switch (server) {
    case 'jellyfin': {
      const base = fixtureObject('jellyfin', 'movie-playback-stop-completed');
      const kind = { played: { NotificationType: 'PlaybackStop', PlayedToCompletion: true }, start: { NotificationType: 'PlaybackStart', PlayedToCompletion: false }, pause: { NotificationType: 'PlaybackProgress', IsPaused: true }, 'stop-early': { NotificationType: 'PlaybackStop', PlayedToCompletion: false, PlaybackPositionTicks: ticks(0.5, 81840000000) } }[event.kind];
      const payload: Record<string, unknown> = { ...base, ...kind, Name: event.title, Year: event.year, NotificationUsername: user, UtcTimestamp: new Date().toISOString() };
      delete payload['Provider_imdb'];
      delete payload['Provider_tmdb'];
      if (event.ids.imdb) payload['Provider_imdb'] = event.ids.imdb;
      if (event.ids.tmdb) payload['Provider_tmdb'] = event.ids.tmdb;
      return payload;
    }
    case 'plex': {
      const base = fixtureObject('plex', 'movie-scrobble') as { Metadata: Record<string, unknown>; Account: Record<string, unknown> };
      const eventName = { played: 'media.scrobble', start: 'media.play', pause: 'media.pause', 'stop-early': 'media.stop' }[event.kind];
      const guid = [...(event.ids.imdb ? [{ id: `imdb://${event.ids.imdb}` }] : []), ...(event.ids.tmdb ? [{ id: `tmdb://${event.ids.tmdb}` }] : [])];
      return { ...base, event: eventName, Account: { ...base.Account, title: user }, Metadata: { ...base.Metadata, title: event.title, year: event.year, Guid: guid, viewOffset: event.kind === 'played' ? 7_700_000 + Math.floor(Math.random() * 1000) : 4_092_000 } };
    }
    case 'emby': {
      const base = fixtureObject('emby', 'movie-playback-stop-completed') as { Item: Record<string, unknown>; User: Record<string, unknown> };
      const kind = { played: { Event: 'playback.stop', PlaybackInfo: { PlayedToCompletion: true, PositionTicks: 81790000000 } }, start: { Event: 'playback.start', PlaybackInfo: { PositionTicks: 0 } }, pause: { Event: 'playback.pause', PlaybackInfo: { PositionTicks: 100 } }, 'stop-early': { Event: 'playback.stop', PlaybackInfo: { PlayedToCompletion: false, PositionTicks: ticks(0.5, 81840000000) } } }[event.kind];
      const providers: Record<string, string> = {};
      if (event.ids.imdb) providers['Imdb'] = event.ids.imdb;
      if (event.ids.tmdb) providers['Tmdb'] = event.ids.tmdb;
      return { ...base, ...kind, Date: new Date().toISOString(), User: { ...base.User, Name: user }, Item: { ...base.Item, Name: event.title, ProductionYear: event.year, ProviderIds: providers } };
    }
    case 'generic': {
      const kind = { played: { event: 'played' }, start: { event: 'start' }, pause: { event: 'stop', progress: 0.1 }, 'stop-early': { event: 'stop', progress: 0.5 } }[event.kind];
      return { ...kind, type: 'movie', title: event.title, year: event.year, external_ids: event.ids, user, ...(event.eventId ? { event_id: event.eventId } : {}) };
    }
  }
}

export function episodePayload(server: ServerName, event: EpisodeEvent): Record<string, unknown> {
  const user = event.user ?? 'alice';
  const start = event.kind === 'start';
  switch (server) {
    case 'jellyfin': {
      const base = fixtureObject('jellyfin', 'episode-playback-stop-92-percent');
      const payload: Record<string, unknown> = { ...base, NotificationType: start ? 'PlaybackStart' : 'PlaybackStop', PlayedToCompletion: !start, SeriesName: event.show, SeasonNumber: event.season, EpisodeNumber: event.number, NotificationUsername: user, UtcTimestamp: new Date().toISOString() };
      delete payload['Provider_imdb'];
      delete payload['Provider_tvdb'];
      if (event.episodeIds.tvdb) payload['Provider_tvdb'] = event.episodeIds.tvdb;
      if (event.episodeIds.imdb) payload['Provider_imdb'] = event.episodeIds.imdb;
      return payload;
    }
    case 'plex': {
      const base = fixtureObject('plex', 'episode-scrobble') as { Metadata: Record<string, unknown>; Account: Record<string, unknown> };
      const guid = [...(event.episodeIds.imdb ? [{ id: `imdb://${event.episodeIds.imdb}` }] : []), ...(event.episodeIds.tvdb ? [{ id: `tvdb://${event.episodeIds.tvdb}` }] : [])];
      return { ...base, event: start ? 'media.play' : 'media.scrobble', Account: { ...base.Account, title: user }, Metadata: { ...base.Metadata, grandparentTitle: event.show, parentIndex: event.season, index: event.number, Guid: guid } };
    }
    case 'emby': {
      const base = fixtureObject('emby', 'episode-markplayed') as { Item: Record<string, unknown>; User: Record<string, unknown> };
      const providers: Record<string, string> = {};
      if (event.episodeIds.tvdb) providers['Tvdb'] = event.episodeIds.tvdb;
      if (event.episodeIds.imdb) providers['Imdb'] = event.episodeIds.imdb;
      return { ...base, Event: start ? 'playback.start' : 'item.markplayed', Date: new Date().toISOString(), User: { ...base.User, Name: user }, Item: { ...base.Item, SeriesName: event.show, ParentIndexNumber: event.season, IndexNumber: event.number, ProviderIds: providers } };
    }
    case 'generic':
      return { event: start ? 'start' : 'played', type: 'episode', title: `Episode ${event.number}`, show_title: event.show, season: event.season, episode: event.number, external_ids: event.showIds ?? {}, episode_external_ids: event.episodeIds, user };
  }
}
