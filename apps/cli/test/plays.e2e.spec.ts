// The built `mt` against a started stack: recording plays, a show's progress, up next and the diary, and a
// sync that carries the plays.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ApiClient } from '@mt/api-client';
import { clientFor, registerUser, type TestUser } from './support/api';
import { startCliStack, type CliStack } from './support/cli-stack';
import { MtRunner, type MtResult } from './support/run-mt';

const EXIT = { ok: 0, usage: 2, notFound: 4 };

let cli: CliStack;
let runner: MtRunner;
let user: TestUser;
let api: ApiClient;

const expectExit = (result: MtResult, code: number) => {
  if (result.code !== code) throw new Error(`mt ${result.args.join(' ')} exited ${result.code}, expected ${code}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`);
};

beforeAll(async () => {
  cli = await startCliStack('plays', { RATE_LIMIT_PER_MINUTE: '0' });
  user = await registerUser(cli.url, 'watcher');
  runner = new MtRunner(cli.url);
  expectExit(await runner.run(['login', '--username', user.username, '--password-stdin'], { input: `${user.password}\n` }), EXIT.ok);
  api = await clientFor(cli.url, user);
}, 180_000);

afterAll(async () => {
  await cli?.stop();
  runner?.dispose();
});

/** A show of two seasons that have aired, three episodes each, and a third not yet aired. */
async function showWithEpisodes(title: string): Promise<string> {
  const show = await api.createEntry('tvshows', { title, year: 2022 });
  for (const season of [1, 2])
    await api.replaceSeason(show.id, season, { episodes: [1, 2, 3].map((number) => ({ number, title: `Episode ${season}.${number}`, air_date: `202${season}-0${number}-01`, runtime_minutes: 40 + number })) });
  await api.replaceSeason(show.id, 3, { episodes: [{ number: 1, title: 'Someday', air_date: '2999-01-01' }] });
  return show.id;
}

describe('mt watch, progress, up-next and diary', () => {
  it('records an episode, a season and a movie; progress and up next follow', async () => {
    const show = await showWithEpisodes(`Watched Show ${Math.random().toString(36).slice(2, 8)}`);
    const one = await runner.run(['watch', 'tvshows', show, '--season', '1', '--episode', '1', '--at', '2026-11-01']);
    expectExit(one, EXIT.ok);
    expect(one.stdout).toMatch(/^Recorded 1 play of "Watched Show \w+"\.\nNow: Watching, progress 1, started 2026-11-01\n$/);

    const season = await runner.run(['watch', 'tvshows', show, '--season', '1', '--json']);
    expectExit(season, EXIT.ok);
    expect(season.json<{ added: unknown[]; existing: number; entry: { progress: number } }>()).toMatchObject({ existing: 0, entry: { progress: 3 } });
    expect(season.json<{ added: unknown[] }>().added).toHaveLength(3);

    const progress = await runner.run(['progress', show]);
    expectExit(progress, EXIT.ok);
    expect(progress.stdout).toContain('3/6 aired episodes played (cycle 1)');
    expect(progress.stdout).toMatch(/Season 1 +3\/3 ✓/);
    expect(progress.stdout).toContain('Next: S02E01 "Episode 2.1" (aired 2022-01-01)');
    const progressJson = await runner.run(['progress', show, '--json']);
    expect(progressJson.json()).toMatchObject({ cycle: 1, aired: 6, completed: 3, next_episode: { season: 2, number: 1 } });

    const upNext = await runner.run(['up-next', '--json']);
    expectExit(upNext, EXIT.ok);
    expect(upNext.json<{ data: Array<{ item: { id: string }; next_episode: { season: number; number: number } }> }>().data).toEqual([
      expect.objectContaining({ item: expect.objectContaining({ id: show }), next_episode: expect.objectContaining({ season: 2, number: 1 }) }),
    ]);
    const upNextText = await runner.run(['up-next']);
    expect(upNextText.stdout).toContain('S02E01 Episode 2.1');
    expect(upNextText.stdout).toContain('3/6');

    const movie = await api.createEntry('movies', { title: 'Diary Film', year: 1999, runtime_minutes: 120 });
    const film = await runner.run(['watch', 'movies', movie.id, '--at', '2026-10-05T21:30:00Z']);
    expectExit(film, EXIT.ok);
    expect(film.stdout).toContain('Now: Watched');

    const diary = await runner.run(['diary', 'tvshows', '--from', '2026-11-01', '--to', '2026-11-01']);
    expectExit(diary, EXIT.ok);
    expect(diary.stdout.trim().split('\n')).toHaveLength(2); // the header and the one play of that day
    expect(diary.stdout).toContain('S01E01');
    const all = await runner.run(['diary', 'tvshows', '--all', '--json']);
    expect(all.json<{ data: unknown[] }>().data).toHaveLength(4);
    const movies = await runner.run(['diary', 'movies', '--json']);
    expect(movies.json<{ data: Array<{ item: { title: string }; watched_at: string }> }>().data).toEqual([
      expect.objectContaining({ item: expect.objectContaining({ title: 'Diary Film' }), watched_at: '2026-10-05T21:30:00.000Z' }),
    ]);
  });

  it('refuses what it cannot send before any request, and says what the server refused', async () => {
    const show = await showWithEpisodes(`Refusing Show ${Math.random().toString(36).slice(2, 8)}`);
    expectExit(await runner.run(['watch', 'tvshows', show, '--episode', '2']), EXIT.usage);
    expectExit(await runner.run(['watch', 'tvshows', show, '--at', 'yesterday']), EXIT.usage);
    expectExit(await runner.run(['watch', 'tvshows', 'not-an-id']), EXIT.usage);
    expectExit(await runner.run(['diary', 'movies', '--from', '2026-02-30']), EXIT.usage);
    const unknown = await runner.run(['watch', 'tvshows', show, '--season', '1', '--episode', '9']);
    expectExit(unknown, EXIT.notFound);
    expect(unknown.stderr).toContain('season 1 episode 9');
  });
});

describe('mt sync with plays', () => {
  it('keeps the plays in the copy: added, and removed when deleted', async () => {
    const movie = await api.createEntry('movies', { title: `Synced Film ${Math.random().toString(36).slice(2, 8)}`, year: 2001 });
    const dir = path.join(runner.home, 'copy');
    const file = path.join(dir, 'movies.json');
    const copy = () => JSON.parse(readFileSync(file, 'utf8')) as { plays: Array<{ id: string; item_id: string }> };
    expectExit(await runner.run(['watch', 'movies', movie.id, '--at', '2026-01-01']), EXIT.ok);
    const first = await runner.run(['sync', 'movies', dir, '--json']);
    expectExit(first, EXIT.ok);
    const plays = (await api.listPlays('movies', movie.id)).data;
    expect(copy().plays.filter((play) => play.item_id === movie.id).map((play) => play.id)).toEqual(plays.map((play) => play.id));

    expectExit(await runner.run(['watch', 'movies', movie.id, '--at', '2026-02-01']), EXIT.ok);
    await api.deletePlay('movies', movie.id, plays[0]!.id);
    const second = await runner.run(['sync', 'movies', dir, '--json']);
    expectExit(second, EXIT.ok);
    expect(second.json()).toMatchObject({ plays_added: 1, plays_deleted: 1 });
    const now = (await api.listPlays('movies', movie.id)).data.map((play) => play.id).sort();
    expect(copy().plays.filter((play) => play.item_id === movie.id).map((play) => play.id).sort()).toEqual(now);
  });
});
