import { episodePayload, moviePayload, sendEvent, type ServerName } from '../test/senders';
import { call, eventually, newUser, startScrobbleStack, type ScrobbleStack } from '../test/scrobble-stack';

jest.setTimeout(180_000);

interface Play {
  id: string;
  source: string;
  precision: string;
  season: number | null;
  number: number | null;
}

const SERVERS: ServerName[] = ['jellyfin', 'plex', 'emby', 'generic'];
const RATE_LIMIT = 40;
const RACE_TRIALS = Number(process.env['RACE_TRIALS'] ?? 3);

let env: ScrobbleStack;
let gw: string;
let admin: string;
const items: Record<string, string> = {};
/** Every hook secret the run handed out: none may appear in any log line. */
const secrets: string[] = [];

const api = <T = Record<string, unknown>>(method: string, path: string, token: string, body?: unknown) => call<T>(gw, method, path, { token, body });

async function createHook(token: string, body: Record<string, unknown>): Promise<{ id: string; url: string }> {
  const created = await api<{ id: string; url: string }>('POST', '/api/v1/scrobble/hooks', token, body);
  expect(created.status).toBe(201);
  secrets.push(new URL(created.body.url).pathname.split('/').pop() as string);
  return created.body;
}

async function playsOf(token: string, category: 'movies' | 'tvshows', itemId: string): Promise<Play[]> {
  const answer = await api<{ data: Play[] }>('GET', `/api/v1/${category}/list/${itemId}/plays`, token);
  return answer.status === 200 ? answer.body.data : [];
}

const waitForPlays = (token: string, category: 'movies' | 'tvshows', itemId: string, count: number) =>
  eventually(async () => {
    const plays = await playsOf(token, category, itemId);
    return plays.length >= count ? plays : undefined;
  }, 10_000, `${count} play(s) of ${itemId}`);

beforeAll(async () => {
  env = await startScrobbleStack({ scrobbleEnv: { HOOK_EVENTS_PER_MINUTE: String(RATE_LIMIT) } });
  gw = env.gatewayUrl;
  admin = await newUser(gw, 'curator');
  const add = async (category: string, body: Record<string, unknown>) => {
    const created = await api<{ id: string }>('POST', `/api/v1/${category}`, admin, body);
    expect(created.status).toBe(201);
    return created.body.id;
  };
  items['matrix'] = await add('movies', { title: 'The Matrix', year: 1999, external_ids: { imdb: 'tt0133093' } });
  items['heat'] = await add('movies', { title: 'Heat', year: 1995, external_ids: { tmdb: '949' } });
  items['alien'] = await add('movies', { title: 'Alien', year: 1979 });
  items['amelie'] = await add('movies', { title: 'Amélie', year: 2001 });
  items['breaking'] = await add('tvshows', { title: 'Breaking Bad', year: 2008, external_ids: { tvdb: '81189' } });
  items['wire'] = await add('tvshows', { title: 'The Wire', year: 2002 });
  for (const [show, tvdbBase] of [['breaking', 349232], ['wire', 500000]] as const) {
    const season = await api('PUT', `/api/v1/tvshows/${items[show]}/seasons/1`, admin, {
      episodes: [1, 2, 3].map((number) => ({ number, title: `Episode ${number}`, runtime_minutes: 50, external_ids: { tvdb: String(tvdbBase + number) } })),
    });
    expect(season.status).toBe(200);
  }
});

afterAll(async () => {
  await env?.stop();
});

describe('hooks', () => {
  it('shows the URL once, lists hooks without it, and refuses the 21st', async () => {
    const token = await newUser(gw, 'hooks');
    const first = await createHook(token, { server: 'plex', name: 'living room' });
    expect(first.url).toMatch(new RegExp(`^${gw}/api/v1/scrobble/plex/[A-Za-z0-9_-]{43}$`));
    expect(first).toMatchObject({ server: 'plex', name: 'living room', usernames: [], threshold: 90, last_event_at: null });
    const listed = await api<Array<Record<string, unknown>>>('GET', '/api/v1/scrobble/hooks', token);
    expect(listed.body).toHaveLength(1);
    expect(JSON.stringify(listed.body)).not.toContain(secrets.at(-1));
    expect(listed.body[0]).not.toHaveProperty('url');
    await Promise.all(Array.from({ length: 19 }, (_, index) => createHook(token, { server: 'generic', name: `script ${index}` })));
    const refused = await api('POST', '/api/v1/scrobble/hooks', token, { server: 'generic', name: 'one too many' });
    expect(refused.status).toBe(409);
  });

  it('refuses a threshold outside 50–100 and an unknown server with 400', async () => {
    const token = await newUser(gw, 'hooks');
    expect((await api('POST', '/api/v1/scrobble/hooks', token, { server: 'plex', name: 'x', threshold: 49 })).status).toBe(400);
    expect((await api('POST', '/api/v1/scrobble/hooks', token, { server: 'kodi', name: 'x' })).status).toBe(400);
  });

  it('builds the URL on the public URL the gateway forwards', async () => {
    const token = await newUser(gw, 'hooks');
    const created = await call<{ url: string }>(gw, 'POST', '/api/v1/scrobble/hooks', { token, body: { server: 'emby', name: 'x' } });
    secrets.push(created.body.url.split('/').pop() as string);
    expect(new URL(created.body.url).host).toBe(new URL(gw).host);
  });

  it('stops the URL at once when the hook is deleted', async () => {
    const token = await newUser(gw, 'hooks');
    const hook = await createHook(token, { server: 'generic', name: 'temporary' });
    const event = moviePayload('generic', { kind: 'start', title: 'Alien', year: 1979, ids: {} });
    expect((await sendEvent(gw, hook.url, 'generic', event)).status).toBe(202);
    expect((await api('DELETE', `/api/v1/scrobble/hooks/${hook.id}`, token)).status).toBe(200);
    const after = await sendEvent(gw, hook.url, 'generic', event);
    expect(after.status).toBe(401);
    expect(JSON.stringify(after.body)).not.toContain(secrets.at(-1));
  });
});

describe('the receiver', () => {
  let token: string;
  beforeAll(async () => {
    token = await newUser(gw, 'receiver');
  });

  it('answers an unknown secret, or a secret of another server, with 401 naming no secret', async () => {
    const hook = await createHook(token, { server: 'jellyfin', name: 'x' });
    const secret = hook.url.split('/').pop() as string;
    for (const path of ['/api/v1/scrobble/jellyfin/not-a-hook-secret-at-all-000000000', `/api/v1/scrobble/plex/${secret}`]) {
      const answer = await call(gw, 'POST', path, { body: '{}', contentType: 'application/json' });
      expect(answer.status).toBe(401);
      expect(JSON.stringify(answer.body)).not.toContain(secret);
    }
    const unknownPath = await call(gw, 'POST', `/api/v1/scrobble/jellyfin/${secret}/more`, { body: '{}' });
    expect(unknownPath.status).toBe(404);
    expect(JSON.stringify(unknownPath.body)).not.toContain(secret);
  });

  it.each(SERVERS)('refuses a body that is not the %s format with 400, whatever its content type', async (server) => {
    const hook = await createHook(token, { server, name: 'x' });
    const other = server === 'plex' ? moviePayload('jellyfin', { kind: 'played', title: 'Alien', year: 1979, ids: {} }) : { event: 'media.scrobble', Metadata: { type: 'movie', title: 'Alien' } };
    const path = new URL(hook.url).pathname;
    const wrongJson = server === 'plex' ? await sendEvent(gw, hook.url, 'emby', other) : await call(gw, 'POST', path, { body: JSON.stringify(other) });
    expect(wrongJson.status).toBe(400);
    expect((await call(gw, 'POST', path, { body: 'hello', contentType: 'text/plain' })).status).toBe(400);
  });

  it('refuses JSON over 1 MiB with 413', async () => {
    const hook = await createHook(token, { server: 'generic', name: 'x' });
    const answer = await call(gw, 'POST', new URL(hook.url).pathname, { body: JSON.stringify({ event: 'played', type: 'movie', title: 'x'.repeat(1024 * 1024) }) });
    expect(answer.status).toBe(413);
  });

  it('ignores pauses, stops below the threshold and other users', async () => {
    for (const server of SERVERS) {
      const hook = await createHook(token, { server, name: 'x', usernames: ['Alice'] });
      for (const kind of ['pause', 'stop-early'] as const) {
        const answer = await sendEvent(gw, hook.url, server, moviePayload(server, { kind, title: 'Alien', year: 1979, ids: {} }));
        expect({ server, kind, status: answer.status, outcome: answer.body['outcome'] }).toEqual({ server, kind, status: 202, outcome: 'ignored' });
      }
      const bob = await sendEvent(gw, hook.url, server, moviePayload(server, { kind: 'played', title: 'Alien', year: 1979, ids: {}, user: 'bob' }));
      expect(bob.body).toMatchObject({ outcome: 'ignored', reason: expect.stringContaining('user') });
    }
  });

  it('limits each hook to its events per minute, then 429 with Retry-After', async () => {
    const hook = await createHook(token, { server: 'generic', name: 'x' });
    const event = moviePayload('generic', { kind: 'pause', title: 'Alien', year: 1979, ids: {} });
    const answers = [];
    for (let index = 0; index <= RATE_LIMIT; index++) answers.push(await sendEvent(gw, hook.url, 'generic', event));
    const limited = answers.filter((answer) => answer.status === 429);
    expect(limited.length).toBeGreaterThanOrEqual(1);
    expect(Number(limited[0]?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Another hook is not affected.
    const other = await createHook(token, { server: 'generic', name: 'y' });
    expect((await sendEvent(gw, other.url, 'generic', event)).status).toBe(202);
  });

  it("moves the hook's last_event_at", async () => {
    const hook = await createHook(token, { server: 'generic', name: 'x' });
    await sendEvent(gw, hook.url, 'generic', moviePayload('generic', { kind: 'pause', title: 'Alien', year: 1979, ids: {} }));
    const listed = await api<Array<{ id: string; last_event_at: string | null }>>('GET', '/api/v1/scrobble/hooks', token);
    expect(listed.body.find((entry) => entry.id === hook.id)?.last_event_at).not.toBeNull();
  });
});

describe.each(SERVERS)('scrobbling from %s', (server) => {
  let token: string;
  beforeEach(async () => {
    token = await newUser(gw, server.slice(0, 4));
  });

  it('records a movie matched by an external id, once, as an exact play of this server', async () => {
    const hook = await createHook(token, { server, name: 'x' });
    const ids = server === 'emby' ? { tmdb: '949' } : { imdb: 'tt0133093' };
    const item = server === 'emby' ? items['heat']! : items['matrix']!;
    const event = moviePayload(server, { kind: 'played', title: server === 'emby' ? 'Heat' : 'The Matrix', year: server === 'emby' ? 1995 : 1999, ids, eventId: 'delivery-1' });
    const first = await sendEvent(gw, hook.url, server, event);
    expect(first.status).toBe(202);
    expect(first.body['outcome']).toBe('queued');
    const plays = await waitForPlays(token, 'movies', item, 1);
    expect(plays[0]).toMatchObject({ source: `scrobble:${server}`, precision: 'exact' });
    // The same delivery again, then another viewing within 6 hours: nothing more.
    expect((await sendEvent(gw, hook.url, server, event)).body['outcome']).toBe('duplicate');
    const again = moviePayload(server, { kind: 'played', title: server === 'emby' ? 'Heat' : 'The Matrix', year: server === 'emby' ? 1995 : 1999, ids, eventId: 'delivery-2' });
    expect((await sendEvent(gw, hook.url, server, again, 'alternate')).body['outcome']).toBe('duplicate');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await playsOf(token, 'movies', item)).toHaveLength(1);
  });

  it('records a movie matched by folded title and year', async () => {
    const hook = await createHook(token, { server, name: 'x' });
    expect((await sendEvent(gw, hook.url, server, moviePayload(server, { kind: 'played', title: 'AMELIE', year: 2001, ids: {} }))).status).toBe(202);
    await waitForPlays(token, 'movies', items['amelie']!, 1);
  });

  it("records an episode matched by the episode's own id", async () => {
    const hook = await createHook(token, { server, name: 'x' });
    await sendEvent(gw, hook.url, server, episodePayload(server, { kind: 'played', show: 'Unknown Title Here', season: 1, number: 2, episodeIds: { tvdb: '349234' } }));
    const plays = await waitForPlays(token, 'tvshows', items['breaking']!, 1);
    expect(plays[0]).toMatchObject({ season: 1, number: 2, source: `scrobble:${server}` });
  });

  it("records an episode matched by the show's title, season and number", async () => {
    const hook = await createHook(token, { server, name: 'x' });
    await sendEvent(gw, hook.url, server, episodePayload(server, { kind: 'played', show: 'the wire', season: 1, number: 3, episodeIds: {} }));
    const plays = await waitForPlays(token, 'tvshows', items['wire']!, 1);
    expect(plays[0]).toMatchObject({ season: 1, number: 3 });
  });

  it('puts a started movie on the list as watching', async () => {
    const hook = await createHook(token, { server, name: 'x' });
    await sendEvent(gw, hook.url, server, moviePayload(server, { kind: 'start', title: 'Alien', year: 1979, ids: {} }));
    const entry = await eventually(async () => {
      const answer = await api<{ status: string }>('GET', `/api/v1/movies/list/${items['alien']}`, token);
      return answer.status === 200 ? answer.body : undefined;
    });
    expect(entry.status).toBe('watching');
    expect(await playsOf(token, 'movies', items['alien']!)).toHaveLength(0);
  });

  it('keeps an unmatched play in the inbox until resolved, then matches the next event at once', async () => {
    const hook = await createHook(token, { server, name: 'x' });
    const unknown = moviePayload(server, { kind: 'played', title: 'Le Samouraï (Director Cut)', year: 1967, ids: {} });
    await sendEvent(gw, hook.url, server, unknown);
    const entry = await eventually(async () => {
      const inbox = await api<Array<{ id: string; title: string; count: number; server: string }>>('GET', '/api/v1/scrobble/unmatched', token);
      return inbox.body[0];
    });
    expect(entry).toMatchObject({ title: 'Le Samouraï (Director Cut)', count: 1, server });
    const resolved = await api('POST', `/api/v1/scrobble/unmatched/${entry.id}/resolve`, token, { item_id: items['alien'] });
    expect(resolved.status).toBe(200);
    expect(await playsOf(token, 'movies', items['alien']!)).toHaveLength(1);
    expect((await api<unknown[]>('GET', '/api/v1/scrobble/unmatched', token)).body).toEqual([]);
    // The same title through the same hook again (a start: no 6-hour rule) is matched by the remembered choice.
    await sendEvent(gw, hook.url, server, moviePayload(server, { kind: 'start', title: 'Le Samouraï (Director Cut)', year: 1967, ids: {} }));
    await eventually(async () => ((await api('GET', `/api/v1/movies/list/${items['alien']}`, token)).status === 200 ? true : undefined));
    expect((await api<unknown[]>('GET', '/api/v1/scrobble/unmatched', token)).body).toEqual([]);
  });
});

describe('the inbox', () => {
  it('dismisses an entry, and only its owner sees it', async () => {
    const token = await newUser(gw, 'inbox');
    const other = await newUser(gw, 'inbox');
    const hook = await createHook(token, { server: 'generic', name: 'x' });
    await sendEvent(gw, hook.url, 'generic', moviePayload('generic', { kind: 'played', title: 'Nowhere To Be Found', year: 2020, ids: {} }));
    const entry = await eventually(async () => (await api<Array<{ id: string }>>('GET', '/api/v1/scrobble/unmatched', token)).body[0]);
    expect((await api<unknown[]>('GET', '/api/v1/scrobble/unmatched', other)).body).toEqual([]);
    expect((await api('DELETE', `/api/v1/scrobble/unmatched/${entry.id}`, other)).status).toBe(404);
    expect((await api('POST', `/api/v1/scrobble/unmatched/${entry.id}/resolve`, other, { item_id: items['alien'] })).status).toBe(404);
    expect((await api('DELETE', `/api/v1/scrobble/unmatched/${entry.id}`, token)).status).toBe(200);
    expect((await api<unknown[]>('GET', '/api/v1/scrobble/unmatched', token)).body).toEqual([]);
  });
});

describe('account deletion', () => {
  it('removes the hooks (their URLs answer 401) and the inbox', async () => {
    const token = await newUser(gw, 'leaving');
    const hook = await createHook(token, { server: 'generic', name: 'x' });
    await sendEvent(gw, hook.url, 'generic', moviePayload('generic', { kind: 'played', title: 'Nowhere To Be Found', year: 2021, ids: {} }));
    await eventually(async () => (await api<unknown[]>('GET', '/api/v1/scrobble/unmatched', token)).body[0]);
    expect((await call(gw, 'DELETE', '/api/v1/auth/me', { token, body: { password: 'correct horse battery staple' } })).status).toBe(200);
    await eventually(async () => ((await sendEvent(gw, hook.url, 'generic', moviePayload('generic', { kind: 'pause', title: 'x', year: 2000, ids: {} }))).status === 401 ? true : undefined));
  });
});

describe('racing requests', () => {
  it(`gives 25 concurrent hook creations exactly 20 hooks (${RACE_TRIALS} trials)`, async () => {
    for (let trial = 0; trial < RACE_TRIALS; trial++) {
      const token = await newUser(gw, 'race');
      const answers = await Promise.all(Array.from({ length: 25 }, (_, index) => api<{ url?: string }>('POST', '/api/v1/scrobble/hooks', token, { server: 'generic', name: `h${index}` })));
      for (const answer of answers) if (answer.body.url) secrets.push(answer.body.url.split('/').pop() as string);
      expect(answers.map((answer) => answer.status).sort()).toEqual([...Array(20).fill(201), ...Array(5).fill(409)]);
      expect((await api<unknown[]>('GET', '/api/v1/scrobble/hooks', token)).body).toHaveLength(20);
    }
  });

  it(`records one play for a delivery repeated concurrently, and for concurrent plays of one movie (${RACE_TRIALS} trials)`, async () => {
    for (let trial = 0; trial < RACE_TRIALS; trial++) {
      const token = await newUser(gw, 'race');
      const hook = await createHook(token, { server: 'generic', name: 'x' });
      const same = moviePayload('generic', { kind: 'played', title: 'The Matrix', year: 1999, ids: { imdb: 'tt0133093' }, eventId: 'one-delivery' });
      const repeated = await Promise.all(Array.from({ length: 8 }, () => sendEvent(gw, hook.url, 'generic', same)));
      expect(repeated.map((answer) => answer.body['outcome']).sort()).toEqual(['duplicate', 'duplicate', 'duplicate', 'duplicate', 'duplicate', 'duplicate', 'duplicate', 'queued']);
      const distinct = await Promise.all(Array.from({ length: 8 }, (_, index) => sendEvent(gw, hook.url, 'generic', moviePayload('generic', { kind: 'played', title: 'Heat', year: 1995, ids: { tmdb: '949' }, eventId: `d${index}` }))));
      expect(distinct.filter((answer) => answer.body['outcome'] === 'queued')).toHaveLength(1);
      await waitForPlays(token, 'movies', items['matrix']!, 1);
      await waitForPlays(token, 'movies', items['heat']!, 1);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect([(await playsOf(token, 'movies', items['matrix']!)).length, (await playsOf(token, 'movies', items['heat']!)).length]).toEqual([1, 1]);
    }
  });
});

describe('logs', () => {
  it('never contain a hook secret, in any line of any process', async () => {
    expect(secrets.length).toBeGreaterThan(20);
    const leaks = env.lines.filter((line) => secrets.some((secret) => line.text.includes(secret)));
    expect(leaks.map((line) => `${line.process}: ${line.text.slice(0, 200)}`)).toEqual([]);
    // The redacted request lines are there: the check looked at the right lines.
    expect(env.lines.some((line) => line.text.includes('/api/v1/scrobble/generic/[redacted]'))).toBe(true);
  });
});
