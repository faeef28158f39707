import { fixture, fixtureObject } from '../../../test/fixtures';
import { NotServerFormatError } from '../scrobble-event';
import { parseEmby } from './emby.parser';
import { parseGeneric } from './generic.parser';
import { parseJellyfin } from './jellyfin.parser';
import { parsePlex } from './plex.parser';

describe('the Jellyfin parser', () => {
  it('reads a completed movie stop as played, with the movie ids and the user', () => {
    expect(parseJellyfin(fixture('jellyfin', 'movie-playback-stop-completed'))).toEqual({
      kind: 'played',
      media: 'movie',
      title: 'The Matrix',
      year: 1999,
      showTitle: null,
      season: null,
      number: null,
      ids: { imdb: 'tt0133093', tmdb: '603' },
      episodeIds: {},
      progress: 81790000000 / 81840000000,
      user: 'alice',
      eventId: null,
    });
  });

  it("reads an episode's provider ids as the episode's own", () => {
    const event = parseJellyfin(fixture('jellyfin', 'episode-playback-stop-92-percent'));
    expect(event).toMatchObject({ kind: 'stop', media: 'episode', showTitle: 'Breaking Bad', season: 1, number: 1, ids: {}, episodeIds: { tvdb: '349232', imdb: 'tt0959621' } });
    expect(event.progress).toBeCloseTo(0.922, 3);
  });

  it('reads start, pause, mark-played and an early stop', () => {
    expect(parseJellyfin(fixture('jellyfin', 'movie-playback-start')).kind).toBe('start');
    expect(parseJellyfin(fixture('jellyfin', 'movie-playback-progress-paused')).kind).toBe('pause');
    expect(parseJellyfin(fixture('jellyfin', 'episode-user-data-saved-played')).kind).toBe('played');
    expect(parseJellyfin(fixture('jellyfin', 'movie-playback-stop-early'))).toMatchObject({ kind: 'stop', progress: 0.5 });
  });

  it('accepts numbers quoted by a template and drops malformed ids', () => {
    const payload = { ...fixtureObject('jellyfin', 'movie-playback-stop-completed'), Year: '1999', Provider_imdb: 'not-an-id' };
    expect(parseJellyfin(JSON.stringify(payload))).toMatchObject({ year: 1999, ids: { tmdb: '603' } });
  });

  it('refuses a body that is not a Jellyfin webhook', () => {
    expect(() => parseJellyfin('{"event":"media.play"}')).toThrow(NotServerFormatError);
    expect(() => parseJellyfin('not json')).toThrow(NotServerFormatError);
    expect(() => parseJellyfin('[1,2]')).toThrow(NotServerFormatError);
  });
});

describe('the Plex parser', () => {
  it('reads a movie scrobble with its Guid ids', () => {
    expect(parsePlex(fixture('plex', 'movie-scrobble'))).toMatchObject({ kind: 'played', media: 'movie', title: 'The Matrix', year: 1999, ids: { imdb: 'tt0133093', tmdb: '603', tvdb: '169' }, user: 'alice' });
  });

  it("reads an episode's Guid ids as the episode's own, with its show, season and number", () => {
    expect(parsePlex(fixture('plex', 'episode-scrobble'))).toMatchObject({ media: 'episode', title: 'Pilot', showTitle: 'Breaking Bad', season: 1, number: 1, ids: {}, episodeIds: { imdb: 'tt0959621', tmdb: '62085', tvdb: '349232' } });
  });

  it('reads play as a start, pause as a pause and a stop with its position', () => {
    expect(parsePlex(fixture('plex', 'movie-play')).kind).toBe('start');
    expect(parsePlex(fixture('plex', 'movie-pause')).kind).toBe('pause');
    expect(parsePlex(fixture('plex', 'movie-stop-halfway'))).toMatchObject({ kind: 'stop', progress: 0.5 });
  });

  it('reads media.rate and library events as other events', () => {
    expect(parsePlex(JSON.stringify({ ...fixtureObject('plex', 'movie-scrobble'), event: 'media.rate' })).kind).toBe('other');
    expect(parsePlex(JSON.stringify({ event: 'library.new', user: true })).media).toBe('other');
  });

  it('refuses a body without an event', () => {
    expect(() => parsePlex(fixture('jellyfin', 'movie-playback-start'))).toThrow(NotServerFormatError);
  });
});

describe('the Emby parser', () => {
  it('reads a completed stop as played', () => {
    expect(parseEmby(fixture('emby', 'movie-playback-stop-completed'))).toMatchObject({ kind: 'played', media: 'movie', title: 'The Matrix', year: 1999, ids: { imdb: 'tt0133093', tmdb: '603' }, user: 'alice' });
  });

  it('reads a mark-played episode with its own ids', () => {
    expect(parseEmby(fixture('emby', 'episode-markplayed'))).toMatchObject({ kind: 'played', media: 'episode', showTitle: 'Breaking Bad', season: 1, number: 1, episodeIds: { tvdb: '349232', imdb: 'tt0959621' } });
  });

  it('reads start, pause and an early stop', () => {
    expect(parseEmby(fixture('emby', 'movie-playback-start')).kind).toBe('start');
    expect(parseEmby(fixture('emby', 'movie-playback-pause')).kind).toBe('pause');
    expect(parseEmby(fixture('emby', 'movie-playback-stop-early'))).toMatchObject({ kind: 'stop' });
  });

  it('refuses a Plex payload', () => {
    expect(() => parseEmby(fixture('plex', 'movie-scrobble'))).toThrow(NotServerFormatError);
  });
});

describe('the generic parser', () => {
  it("reads the show's ids and the episode's ids apart", () => {
    const body = { event: 'played', type: 'episode', title: 'Pilot', show_title: 'Breaking Bad', season: 1, episode: 1, external_ids: { tvdb: '81189' }, episode_external_ids: { tvdb: '349232' }, user: 'bob', event_id: 'abc' };
    expect(parseGeneric(JSON.stringify(body))).toMatchObject({ kind: 'played', media: 'episode', showTitle: 'Breaking Bad', ids: { tvdb: '81189' }, episodeIds: { tvdb: '349232' }, user: 'bob', eventId: 'abc' });
  });

  it('refuses unknown fields, a progress over 1 and a missing title, naming the field', () => {
    expect(() => parseGeneric(JSON.stringify({ event: 'stop', type: 'movie', title: 'X', extra: 1 }))).toThrow(NotServerFormatError);
    expect(() => parseGeneric(JSON.stringify({ event: 'stop', type: 'movie', title: 'X', progress: 1.5 }))).toThrow(/progress/);
    expect(() => parseGeneric(JSON.stringify({ event: 'stop', type: 'movie' }))).toThrow(/title/);
  });
});
