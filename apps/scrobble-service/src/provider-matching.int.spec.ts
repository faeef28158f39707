import { startProviderReplay, type ProviderReplay } from '@mt/testing';
import { episodePayload, moviePayload, sendEvent } from '../test/senders';
import { call, eventually, newUser, startScrobbleStack, type ScrobbleStack } from '../test/scrobble-stack';

jest.setTimeout(180_000);

/** Long enough for a short outage to be waited out, short enough to see a long one give up. */
const PROVIDER_PATIENCE_MS = 8000;

let replay: ProviderReplay;
let env: ScrobbleStack;
let gw: string;

const api = <T = Record<string, unknown>>(method: string, path: string, token: string, body?: unknown) => call<T>(gw, method, path, { token, body });

async function hookOf(token: string, server: 'jellyfin' | 'plex'): Promise<string> {
  const created = await api<{ url: string }>('POST', '/api/v1/scrobble/hooks', token, { server, name: server });
  expect(created.status).toBe(201);
  return created.body.url;
}

/** The catalog entry holding `externalId` (`tmdb:348`), once there is one. */
const entryHolding = (category: 'movies' | 'tvshows', externalId: string, token: string) =>
  eventually(async () => (await api<{ data: Array<{ id: string; title: string; created_by: string }> }>('GET', `/api/v1/${category}?external_id=${externalId}`, token)).body.data[0], 15_000, `an entry holding ${externalId}`);

const playsOf = async (token: string, category: 'movies' | 'tvshows', itemId: string) =>
  (await api<{ data: Array<{ source: string; season: number | null; number: number | null }> }>('GET', `/api/v1/${category}/list/${itemId}/plays`, token)).body.data ?? [];

const inboxOf = async (token: string) => (await api<Array<{ title: string }>>('GET', '/api/v1/scrobble/unmatched', token)).body;


beforeAll(async () => {
  replay = await startProviderReplay();
  env = await startScrobbleStack({ name: 'scprov', catalogEnv: replay.env, scrobbleEnv: { PROVIDER_PATIENCE_MS: String(PROVIDER_PATIENCE_MS) } });
  gw = env.gatewayUrl;
});

afterAll(async () => {
  await env?.stop();
  await replay?.close();
});

describe('matching at the metadata providers', () => {
  it('adds a played movie the catalog lacks from its provider, as created by the hook owner, and records the play', async () => {
    const token = await newUser(gw, 'provmovie');
    const me = (await api<{ id: string }>('GET', '/api/v1/auth/me', token)).body;
    const url = await hookOf(token, 'jellyfin');
    expect((await sendEvent(gw, url, 'jellyfin', moviePayload('jellyfin', { kind: 'played', title: 'Alien', year: 1979, ids: { tmdb: '348' } }))).status).toBe(202);
    const entry = await entryHolding('movies', 'tmdb:348', token);
    expect(entry).toMatchObject({ title: 'Alien', created_by: me.id });
    const plays = await eventually(async () => ((await playsOf(token, 'movies', entry.id)).length ? playsOf(token, 'movies', entry.id) : undefined));
    expect(plays).toEqual([expect.objectContaining({ source: 'scrobble:jellyfin' })]);
    expect(await inboxOf(token)).toEqual([]);
  });

  it("adds a played episode's show found by its title, with its seasons, and records that episode", async () => {
    const token = await newUser(gw, 'provshow');
    const url = await hookOf(token, 'plex');
    expect((await sendEvent(gw, url, 'plex', episodePayload('plex', { kind: 'played', show: 'Severance', season: 1, number: 2, episodeIds: { tvdb: '8859281' } }))).status).toBe(202);
    const show = await entryHolding('tvshows', 'tmdb:95396', token);
    const plays = await eventually(async () => ((await playsOf(token, 'tvshows', show.id)).length ? playsOf(token, 'tvshows', show.id) : undefined));
    expect(plays).toEqual([expect.objectContaining({ season: 1, number: 2, source: 'scrobble:plex' })]);
  });

  it('puts a play no provider knows in the inbox', async () => {
    const token = await newUser(gw, 'provnone');
    const url = await hookOf(token, 'jellyfin');
    await sendEvent(gw, url, 'jellyfin', moviePayload('jellyfin', { kind: 'played', title: 'Nobody Filmed This', year: 1961, ids: {} }));
    expect(await eventually(async () => (await inboxOf(token))[0])).toMatchObject({ title: 'Nobody Filmed This' });
  });

  it('waits out a short provider outage, then records the play', async () => {
    replay.recordMovie(990101, 'Brief Outage', '2011-01-01');
    replay.fail('server_error', { times: 100_000, path: '/search/movie' });
    const token = await newUser(gw, 'provwait');
    const url = await hookOf(token, 'jellyfin');
    await sendEvent(gw, url, 'jellyfin', moviePayload('jellyfin', { kind: 'played', title: 'Brief Outage', year: 2011, ids: {} }));
    await eventually(async () => (replay.calls('/search/movie') >= 2 ? true : undefined), 10_000, 'two failed searches');
    expect(await inboxOf(token)).toEqual([]);
    replay.reset();
    const entry = await entryHolding('movies', 'tmdb:990101', token);
    await eventually(async () => ((await playsOf(token, 'movies', entry.id)).length === 1 ? true : undefined), 15_000, 'the play');
    expect(await inboxOf(token)).toEqual([]);
  });

  it('parks the play in the inbox when the provider stays down beyond the patience', async () => {
    replay.recordMovie(990102, 'Long Outage', '2012-01-01');
    replay.fail('server_error', { times: 100_000, path: '/search/movie' });
    try {
      const token = await newUser(gw, 'provpark');
      const url = await hookOf(token, 'jellyfin');
      const sentAt = Date.now();
      await sendEvent(gw, url, 'jellyfin', moviePayload('jellyfin', { kind: 'played', title: 'Long Outage', year: 2012, ids: {} }));
      const parked = await eventually(async () => (await inboxOf(token))[0], PROVIDER_PATIENCE_MS + 20_000, 'the inbox entry');
      expect(parked).toMatchObject({ title: 'Long Outage' });
      expect(Date.now() - sentAt).toBeGreaterThanOrEqual(PROVIDER_PATIENCE_MS);
      expect((await api<{ data: unknown[] }>('GET', '/api/v1/movies?external_id=tmdb:990102', token)).body.data).toEqual([]);
    } finally {
      replay.reset();
    }
  });
});
