import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Play, ShowProgress } from '../../api/play-calls';
import { apiError, baseServer, CATEGORIES, json, listEntry, page } from '../../test/fake-server';
import { renderApp } from '../../test/render-app';

const SHOW = 'a'.repeat(24);
const FILM = 'b'.repeat(24);
const TV = { id: 'tvshows', name: 'tvshows', display_name: 'TV shows', description: 'Shows', endpoint: '/api/v1/tvshows', icon: 'tv', progress_unit: 'episodes' };
const MOVIES = { ...CATEGORIES[1]!, progress_unit: 'minutes' };

/** Season 1 of five aired episodes and season 2 of two, one not aired yet; plays kept as the API keeps them. */
function showServer(initial: { status?: string; played?: number[] } = {}) {
  const episodes = [
    ...[1, 2, 3, 4, 5].map((n) => ({ id: `e1${n}`.padEnd(24, '0'), season: 1, number: n, title: `Pilot ${n}`, air_date: '2020-01-0' + n })),
    { id: 'e21'.padEnd(24, '0'), season: 2, number: 1, title: 'Return', air_date: '2021-01-01' },
    { id: 'e22'.padEnd(24, '0'), season: 2, number: 2, title: 'Later', air_date: '2999-01-01' },
  ];
  const state = { cycle: 1, status: initial.status ?? 'watching', plays: [] as Play[], nextId: 1 };
  const play = (episodeId: string, cycle = state.cycle): Play => {
    const e = episodes.find((x) => x.id === episodeId)!;
    return { id: `p${state.nextId++}`.padEnd(24, '0'), item_id: SHOW, episode: { id: e.id, season: e.season, number: e.number }, season: e.season, number: e.number, watched_at: '2026-11-20T20:00:00.000Z', precision: 'exact', cycle, source: 'manual', created_at: '2026-11-20T20:00:00.000Z' };
  };
  for (const n of initial.played ?? []) state.plays.push(play(episodes[n - 1]!.id));
  const aired = episodes.filter((e) => e.air_date <= '2026-12-01');
  const playedNow = (id: string) => state.plays.filter((p) => p.episode?.id === id && p.cycle === state.cycle).length;
  const progress = (): ShowProgress => {
    const completed = aired.filter((e) => playedNow(e.id) > 0).length;
    const next = aired.find((e) => playedNow(e.id) === 0) ?? null;
    return {
      cycle: state.cycle,
      aired: aired.length,
      completed,
      next_episode: next,
      last_played_at: null,
      seasons: [1, 2].map((number) => ({
        number,
        aired: aired.filter((e) => e.season === number).length,
        completed: aired.filter((e) => e.season === number && playedNow(e.id) > 0).length,
        episodes: episodes.filter((e) => e.season === number).map((e) => ({ id: e.id, number: e.number, title: e.title, air_date: e.air_date, plays: playedNow(e.id), last_watched_at: null })),
      })),
    };
  };
  const entry = () => {
    const { completed, aired: total } = progress();
    return listEntry(SHOW, 'Breaking Ground', completed === total ? 'completed' : state.status, { progress: completed, updated_at: `2026-11-20T20:00:0${state.nextId % 10}.000Z` });
  };
  const server = baseServer()
    .on('GET', '/api/v1/categories', () => json(200, [MOVIES, TV]))
    .on('GET', `/api/v1/tvshows/${SHOW}`, () => json(200, { id: SHOW, title: 'Breaking Ground', year: 2020, description: null, genres: [], seasons: 2, episodes: 7, network: null }))
    .on('GET', `/api/v1/tvshows/list/${SHOW}`, () => json(200, entry()))
    .on('GET', `/api/v1/tvshows/list/${SHOW}/progress`, () => json(200, progress()))
    .on('GET', `/api/v1/tvshows/list/${SHOW}/plays`, () => json(200, { data: [...state.plays].reverse(), next_cursor: null }))
    .on('GET', '/api/v1/tvshows/list', () => json(200, page([entry()])))
    .on('GET', '/api/v1/tvshows/list/stats', () => json(200, { total: 1, by_status: { watching: 1, completed: 0, on_hold: 0, dropped: 0, plan_to_watch: 0 }, mean_score: null, score_histogram: {}, progress_total: 0, completed_by_year: {} }))
    .on('POST', `/api/v1/tvshows/list/${SHOW}/plays`, (request) => {
      const body = request.body as { episodes?: Array<{ episode_id: string }>; seasons?: number[]; all_aired?: boolean };
      const ids = [
        ...(body.episodes ?? []).map((e) => e.episode_id),
        ...aired.filter((e) => body.all_aired || body.seasons?.includes(e.season)).map((e) => e.id),
      ];
      const added = ids.map((id) => play(id));
      state.plays.push(...added);
      return json(201, { added, existing: 0 });
    })
    .on('DELETE', /^\/api\/v1\/tvshows\/list\/a{24}\/plays\/(\w+)$/, (_request, [, id]) => {
      state.plays = state.plays.filter((p) => p.id !== id);
      return json(200, { message: 'deleted' });
    })
    .on('POST', `/api/v1/tvshows/list/${SHOW}/rewatch`, () => {
      state.cycle += 1;
      state.nextId += 1;
      state.status = 'watching';
      return json(200, entry());
    });
  return { server, state };
}

describe("a show's episodes", () => {
  it('marks a season watched and shows the progress and the next episode change', async () => {
    const { server } = showServer({ played: [1, 2] });
    renderApp(server, `/tvshows/${SHOW}`);
    const user = userEvent.setup();
    const episodes = await screen.findByRole('region', { name: 'Episodes' });
    expect(await within(episodes).findByText('2 / 6 episodes')).toBeTruthy();
    expect(episodes.textContent).toContain('Next: S1 · E3 “Pilot 3”');
    await user.click(within(episodes).getByRole('button', { name: 'Mark season 1 watched' }));
    // Only the season's episodes not played yet: a second play of E1 and E2 would show twice in the diary.
    expect(server.sent('POST', `/api/v1/tvshows/list/${SHOW}/plays`)[0]?.body).toEqual({ watched_at: 'now', episodes: ['e13', 'e14', 'e15'].map((id) => ({ episode_id: id.padEnd(24, '0') })) });
    expect(await within(episodes).findByText('5 / 6 episodes')).toBeTruthy();
    expect(episodes.textContent).toContain('Next: S2 · E1 “Return”');
    expect((within(episodes).getByRole('checkbox', { name: '3. Pilot 3' }) as HTMLInputElement).checked).toBe(true);
    await user.click(within(episodes).getByRole('button', { name: 'Mark all aired watched' }));
    expect(await within(episodes).findByText('6 / 6 episodes')).toBeTruthy();
    expect(server.sent('POST', `/api/v1/tvshows/list/${SHOW}/plays`)[1]?.body).toEqual({ watched_at: 'now', episodes: [{ episode_id: 'e21'.padEnd(24, '0') }] });
    expect((within(episodes).getByRole('button', { name: 'Mark all aired watched' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("unticks an episode by deleting that episode's play of the current cycle", async () => {
    const { server, state } = showServer({ played: [1, 2] });
    renderApp(server, `/tvshows/${SHOW}`);
    const user = userEvent.setup();
    const box = await screen.findByRole('checkbox', { name: '2. Pilot 2' });
    const second = state.plays[1]!.id;
    await user.click(box);
    await waitFor(() => expect(server.sent('DELETE', `/api/v1/tvshows/list/${SHOW}/plays/${second}`)).toHaveLength(1));
    expect(await screen.findByText('1 / 6 episodes')).toBeTruthy();
  });

  it('starts a rewatch of a finished show from the first episode', async () => {
    const { server } = showServer({ played: [1, 2, 3, 4, 5, 6] });
    renderApp(server, `/tvshows/${SHOW}`);
    const user = userEvent.setup();
    expect(await screen.findByText('6 / 6 episodes')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Watch again' }));
    expect(await screen.findByText('0 / 6 episodes')).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Episodes' }).textContent).toContain('Next: S1 · E1');
    expect(server.sent('POST', `/api/v1/tvshows/list/${SHOW}/rewatch`)).toHaveLength(1);
  });

  it('+1 on a list row plays the next episode, and Undo deletes that play', async () => {
    const { server, state } = showServer({ played: [1] });
    renderApp(server, '/tvshows/list');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^\+1/ }));
    const notice = await screen.findByText('S1 · E2 of “Breaking Ground” marked as watched.');
    expect(server.sent('POST', `/api/v1/tvshows/list/${SHOW}/plays`)[0]?.body).toEqual({ watched_at: 'now', episodes: [{ episode_id: 'e12'.padEnd(24, '0') }] });
    expect(state.plays).toHaveLength(2);
    await user.click(within(notice.parentElement!).getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(state.plays).toHaveLength(1));
  });

  it('says so when +1 finds no aired episode left', async () => {
    const { server } = showServer({ played: [1, 2, 3, 4, 5, 6], status: 'watching' });
    renderApp(server, '/tvshows/list');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^\+1/ }));
    expect((await screen.findByRole('alert')).textContent).toBe('Every aired episode of “Breaking Ground” is already watched.');
  });
});

describe('+1 on a show whose episodes the catalog does not list', () => {
  it('counts one more episode by hand', async () => {
    const entry = listEntry(SHOW, 'Breaking Ground', 'plan_to_watch', { progress: null });
    const server = baseServer()
      .on('GET', '/api/v1/categories', () => json(200, [MOVIES, TV]))
      .on('GET', `/api/v1/tvshows/${SHOW}`, () => json(200, { id: SHOW, title: 'Breaking Ground', year: 2020, description: null, genres: [], seasons: null, episodes: 10, network: null }))
      .on('GET', `/api/v1/tvshows/list/${SHOW}`, () => json(200, entry))
      .on('GET', /\/history$/, () => json(200, []))
      .on('GET', `/api/v1/tvshows/list/${SHOW}/progress`, () => json(200, { cycle: 1, aired: 0, completed: 0, next_episode: null, last_played_at: null, seasons: [] }))
      .on('PATCH', `/api/v1/tvshows/list/${SHOW}`, (request) => json(200, { ...entry, ...(request.body as object) }));
    renderApp(server, `/tvshows/${SHOW}`);
    const user = userEvent.setup();
    expect(await screen.findByText(/lists no episodes for this show yet/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /^\+1/ }));
    expect(await screen.findByText('1 / 10 episodes')).toBeTruthy();
    expect(server.sent('PATCH', `/api/v1/tvshows/list/${SHOW}`)[0]?.body).toEqual({ progress: 1, status: 'watching' });
    expect(server.sent('POST', /plays$/)).toHaveLength(0);
  });
});

describe('I watched it', () => {
  function filmServer(year: number | null) {
    const plays: Play[] = [];
    const server = baseServer()
      .on('GET', '/api/v1/categories', () => json(200, [MOVIES, TV]))
      .on('GET', `/api/v1/movies/${FILM}`, () => json(200, { id: FILM, title: 'Heat', year, description: null, genres: [], runtime_minutes: 170, director: null }))
      .on('GET', `/api/v1/movies/list/${FILM}`, () => json(200, listEntry(FILM, 'Heat', plays.length ? 'completed' : 'plan_to_watch', { updated_at: `2026-11-20T20:00:0${plays.length}.000Z` })))
      .on('GET', `/api/v1/movies/list/${FILM}/plays`, () => json(200, { data: plays, next_cursor: null }))
      .on('GET', /\/history$/, () => json(200, []))
      .on('POST', `/api/v1/movies/list/${FILM}/plays`, (request) => {
        const { watched_at } = request.body as { watched_at: string };
        if (/^\d/.test(watched_at) && watched_at > '2100') return apiError(400, 'validation_failed', 'invalid', { details: [{ path: 'watched_at', message: 'must not be in the future' }] });
        const added: Play = { id: 'f'.repeat(24), item_id: FILM, episode: null, season: null, number: null, watched_at: watched_at === 'unknown' ? null : `${watched_at}T00:00:00.000Z`, precision: watched_at === 'unknown' ? 'unknown' : 'day', cycle: 1, source: 'manual', created_at: '2026-11-20T20:00:00.000Z' };
        plays.push(added);
        return json(201, { added: [added], existing: 0 });
      });
    return { server, plays };
  }

  it('records a play on a date and lists it', async () => {
    const { server } = filmServer(1995);
    renderApp(server, `/movies/${FILM}`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('radio', { name: 'On a date' }));
    await user.type(screen.getByLabelText('Date'), '2024-03-04');
    await user.click(screen.getByRole('button', { name: 'I watched it' }));
    expect(server.sent('POST', `/api/v1/movies/list/${FILM}/plays`)[0]?.body).toEqual({ watched_at: '2024-03-04' });
    const times = await screen.findByRole('list', { name: 'Times watched' });
    expect(within(times).getAllByRole('listitem')).toHaveLength(1);
    expect(await screen.findByRole('button', { name: 'Watch again' })).toBeTruthy();
  });

  it('records a play whose date is unknown', async () => {
    const { server } = filmServer(1995);
    renderApp(server, `/movies/${FILM}`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('radio', { name: 'I don’t know' }));
    await user.click(screen.getByRole('button', { name: 'I watched it' }));
    expect(server.sent('POST', `/api/v1/movies/list/${FILM}/plays`)[0]?.body).toEqual({ watched_at: 'unknown' });
    expect(await screen.findByText('Date unknown')).toBeTruthy();
  });

  it("shows the API's refusal of a date next to the date field", async () => {
    const { server } = filmServer(1995);
    renderApp(server, `/movies/${FILM}`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('radio', { name: 'On a date' }));
    await user.type(screen.getByLabelText('Date'), '2999-03-04');
    await user.click(screen.getByRole('button', { name: 'I watched it' }));
    expect(await screen.findByText('Must not be in the future.')).toBeTruthy();
    expect(screen.getByLabelText('Date').getAttribute('aria-invalid')).toBe('true');
  });
});

describe('the diary', () => {
  it("lists the category's plays by day, within the chosen dates", async () => {
    const server = baseServer()
      .on('GET', '/api/v1/categories', () => json(200, [MOVIES, TV]))
      .on('GET', '/api/v1/tvshows/list/plays', () =>
        json(200, {
          data: [
            { id: '1'.repeat(24), item_id: SHOW, item: { id: SHOW, title: 'Breaking Ground', year: 2020 }, episode: null, season: 1, number: 2, watched_at: '2026-11-20T20:00:00.000Z', precision: 'exact', cycle: 1, source: 'scrobble:jellyfin', created_at: '2026-11-20T20:00:00.000Z' },
            { id: '2'.repeat(24), item_id: SHOW, item: { id: SHOW, title: 'Breaking Ground', year: 2020 }, episode: null, season: 1, number: 1, watched_at: null, precision: 'unknown', cycle: 1, source: 'manual', created_at: '2026-11-19T20:00:00.000Z' },
          ],
          next_cursor: null,
        }),
      );
    renderApp(server, '/tvshows/diary?from=2026-11-01');
    const unknown = await screen.findByRole('region', { name: 'Date unknown' });
    expect(unknown.textContent).toContain('Breaking Ground S1 · E1');
    expect(screen.getByRole('region', { name: '2026-11-20' }).textContent).toContain('scrobble from jellyfin');
    expect(server.sent('GET', '/api/v1/tvshows/list/plays')[0]?.query.get('from')).toBe('2026-11-01');
  });
});
