import { startProviderReplay, type ProviderReplay } from '@mt/testing';
import { memoryAnswerCache } from './answer-cache';
import { ProviderNotFoundError } from './provider-http';
import { providerSettings } from './provider-settings';
import { TmdbProvider } from './tmdb';

let replay: ProviderReplay;
beforeAll(async () => {
  replay = await startProviderReplay();
});
afterAll(() => replay.close());
beforeEach(() => replay.reset());

const tmdb = (env: Record<string, string> = replay.env) => new TmdbProvider(providerSettings(env).tmdb!, memoryAnswerCache(), { timeoutMs: 2000, retryBackoffMs: 10 });

describe('TMDB adapter against the replay server', () => {
  it('searches movies with the v3 key as a query parameter, year included', async () => {
    const hits = await tmdb().search('movie', { q: 'alien', year: 1979 });
    expect(hits).toEqual([
      {
        provider: 'tmdb',
        provider_id: '348',
        title: 'Alien',
        year: 1979,
        overview: expect.stringContaining('Nostromo'),
        poster_url: `${replay.env['TMDB_IMAGE_URL']}/w500/vfrQk5IPloGg1v9Rzbh2Eg3VGyM.jpg`,
        external_ids: { tmdb: '348' },
      },
    ]);
    expect(replay.requests[0]).toMatchObject({ path: '/tmdb/3/search/movie', auth: 'api_key' });
    expect(replay.requests[0]!.url).toContain('year=1979');
  });

  it('sends the v4 read token as a Bearer header, never the key, when both are set', async () => {
    await tmdb({ ...replay.env, TMDB_READ_TOKEN: 'replay-token' }).search('movie', { q: 'alien' });
    expect(replay.requests[0]!.auth).toBe('bearer');
    expect(replay.requests[0]!.url).not.toContain('api_key');
  });

  it('searches series by first air year', async () => {
    const hits = await tmdb().search('tv', { q: 'sever', year: 2022 });
    expect(hits.map((hit) => [hit.provider_id, hit.title, hit.year])).toEqual([['95396', 'Severance', 2022]]);
    expect(replay.requests[0]!.url).toContain('first_air_date_year=2022');
  });

  it('fetches a movie with its external ids and director in one request', async () => {
    const work = await tmdb().fetchWork('movie', '348');
    expect(work).toMatchObject({
      title: 'Alien',
      year: 1979,
      genres: ['Horror', 'Science Fiction'],
      external_ids: { tmdb: '348', imdb: 'tt0078748' },
      fields: { runtime_minutes: 117, director: 'Ridley Scott' },
    });
    expect(replay.calls()).toBe(1);
    expect(replay.requests[0]!.url).toContain('append_to_response=external_ids');
  });

  it('fetches a series with its ids and network, then every season, specials and the unaired episode included', async () => {
    const provider = tmdb();
    expect(await provider.fetchWork('tv', '95396')).toMatchObject({
      title: 'Severance',
      external_ids: { tmdb: '95396', imdb: 'tt11280740', tvdb: '371980' },
      fields: { seasons: 3, episodes: 7, network: 'Apple TV+' },
    });
    const seasons = await provider.seasons('95396');
    expect(seasons.map((season) => [season.number, season.episodes.length])).toEqual([[0, 1], [1, 3], [2, 3], [3, 1]]);
    expect(seasons[1]!.episodes[0]).toEqual({ number: 1, title: 'Good News About Hell', air_date: '2022-02-17', runtime_minutes: 57, external_ids: { tmdb: '1980441' } });
    expect(seasons[3]!.episodes[0]).toEqual({ number: 1, title: null, air_date: '2099-01-15', runtime_minutes: null, external_ids: { tmdb: '9900001' } });
  });

  it('answers a second identical read from the cache, and a fresh read from the provider', async () => {
    const provider = tmdb();
    await provider.search('movie', { q: 'alien' });
    await provider.search('movie', { q: 'alien' });
    expect(replay.calls('/search/movie')).toBe(1);
    await provider.fetchWork('movie', '348');
    await provider.fetchWork('movie', '348', { fresh: true });
    expect(replay.calls('/movie/348')).toBe(2);
  });

  it('says an unknown id is not found', async () => {
    await expect(tmdb().fetchWork('movie', '999999')).rejects.toBeInstanceOf(ProviderNotFoundError);
  });
});

describe('TMDB adapter failures', () => {
  const unavailable = { status: 502, code: 'provider_unavailable' };

  it('turns a timeout into 502 provider_unavailable', async () => {
    replay.fail('timeout');
    await expect(tmdb().search('movie', { q: 'alien' })).rejects.toMatchObject({ ...unavailable, message: 'tmdb did not answer in time' });
  });

  it('retries a 429 once and answers', async () => {
    replay.fail('rate_limited');
    expect(await tmdb().search('movie', { q: 'alien' })).toHaveLength(3);
    expect(replay.calls('/search/movie')).toBe(2);
  });

  it('turns a second 429 into 503 with Retry-After', async () => {
    replay.fail('rate_limited', { times: 2 });
    await expect(tmdb().search('movie', { q: 'alien' })).rejects.toMatchObject({ status: 503, code: 'service_unavailable', headers: { 'Retry-After': '2' } });
    expect(replay.calls('/search/movie')).toBe(2);
  });

  it.each([['server_error'], ['malformed'], ['wrong_shape']] as const)('turns a %s answer into 502 provider_unavailable and caches nothing', async (fault) => {
    const provider = tmdb();
    replay.fail(fault);
    await expect(provider.fetchWork('movie', '348')).rejects.toMatchObject(unavailable);
    expect((await provider.fetchWork('movie', '348')).title).toBe('Alien');
    expect(replay.calls('/movie/348')).toBe(2);
  });

  it('turns a refused credential into 502 provider_unavailable', async () => {
    await expect(tmdb({ ...replay.env, TMDB_API_KEY: 'wrong' }).search('movie', { q: 'alien' })).rejects.toMatchObject(unavailable);
  });
});

describe('TMDB find by IMDb id', () => {
  it("gives TMDB's id of the movie or the series an IMDb id names, null for none", async () => {
    expect(await tmdb().idFor('movie', { imdb: 'tt0078748' })).toBe('348');
    expect(await tmdb().idFor('tv', { imdb: 'tt11280740' })).toBe('95396');
    expect(await tmdb().idFor('movie', { imdb: 'tt0000001' })).toBeNull();
    expect(await tmdb().idFor('movie', {})).toBeNull();
    expect(replay.requests.map((request) => request.path)).toEqual(['/tmdb/3/find/tt0078748', '/tmdb/3/find/tt11280740', '/tmdb/3/find/tt0000001']);
  });
});
