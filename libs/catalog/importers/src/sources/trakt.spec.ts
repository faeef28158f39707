import { byTitle, failed, fixture, okRows, parseAll, refusal, skipped, streamOf } from '../../test/rows';

const movies = { source: 'trakt', category: 'movies' } as const;
const tvshows = { source: 'trakt', category: 'tvshows' } as const;

describe('trakt source', () => {
  it('watched-movies.json: completed on the UTC day last watched, ids as strings', async () => {
    const rows = okRows(await parseAll(fixture('trakt/watched-movies.json'), movies));
    expect(
      rows.map((row) => [
        row.row,
        row.item.title,
        row.item.year,
        row.item.external_ids,
        row.entry.status,
        row.entry.finished_at,
      ]),
    ).toEqual([
      [1, 'Batman Begins', 2005, { imdb: 'tt0372784', tmdb: '272' }, 'completed', '2014-10-11'],
      // 22:05 at +02:00 is 20:05 UTC, the same day.
      [2, 'Spirited Away', 2001, { imdb: 'tt0245429', tmdb: '129' }, 'completed', '2021-06-30'],
      [3, 'Cléo from 5 to 7', 1962, {}, 'completed', '2022-01-01'],
    ]);
    expect(rows[2]!.warnings).toEqual(["external id imdb 'tt12' is not valid and was dropped"]);
  });

  it('watched-shows.json: watching, progress = episodes seen without specials, tvdb id kept', async () => {
    const rows = okRows(await parseAll(fixture('trakt/watched-shows.json'), tvshows));
    expect(
      rows.map((row) => [row.item.title, row.item.external_ids, row.entry.status, row.entry.progress]),
    ).toEqual([
      ['Breaking Bad', { imdb: 'tt0903747', tmdb: '1396', tvdb: '81189' }, 'watching', 10],
      ['Game of Thrones', { imdb: 'tt0944947', tmdb: '1399', tvdb: '121361' }, 'watching', 0],
    ]);
  });

  it('ratings: 1–10 as it is; shows, seasons and episodes are skipped in movies; an out-of-range rating is dropped', async () => {
    const rows = await parseAll(fixture('trakt/ratings.json'), movies);
    expect(
      okRows(rows).map((row) => [row.row, row.item.title, row.entry.status, row.entry.score, row.warnings]),
    ).toEqual([
      [1, 'Parasite', 'completed', 10, []],
      [5, 'Inception', 'completed', null, ["rating '11' is not a valid rating and was dropped"]],
    ]);
    expect(skipped(rows).map((row) => row.row)).toEqual([2, 3, 4]);
  });

  it('ratings into tvshows: only whole shows', async () => {
    const rows = await parseAll(fixture('trakt/ratings.json'), tvshows);
    expect(okRows(rows).map((row) => [row.row, row.item.title, row.entry.score])).toEqual([
      [2, 'The Office', 7],
    ]);
    expect(skipped(rows)).toHaveLength(4);
  });

  it('watchlist (BOM, movies and shows mixed): plan_to_watch with the notes', async () => {
    const rows = await parseAll(fixture('trakt/lists-watchlist.json'), movies);
    expect(byTitle(rows).get('Perfect Days')!.entry).toEqual({
      status: 'plan_to_watch',
      score: null,
      progress: null,
      notes: 'Watch with "Ana", on the big screen',
      started_at: null,
      finished_at: null,
    });
    expect(okRows(rows).map((row) => row.item.title)).toEqual(['Perfect Days', 'Past Lives']);
    const shows = okRows(await parseAll(fixture('trakt/lists-watchlist.json'), tvshows));
    expect(shows.map((row) => [row.item.title, row.item.external_ids.tvdb])).toEqual([['Shōgun', '392573']]);
  });

  it('watched-history.json: the plays of one movie become one row, the latest winning', async () => {
    const rows = await parseAll(fixture('trakt/watched-history.json'), movies);
    expect(okRows(rows).map((row) => [row.row, row.item.title, row.entry.finished_at])).toEqual([
      [2, 'The Thing', '2023-10-31'],
      [5, 'In the Mood for Love', '2022-02-14'],
    ]);
    expect(skipped(rows).map((row) => row.row)).toEqual([4]);
  });

  it('fails elements that are not Trakt items, and goes on', async () => {
    const rows = await parseAll(
      streamOf(
        '[1, {"movie": {"title": "Heat", "year": 1995}}, {"plays": 1, "foo": {}}, {"plays": 1, "movie": {"title": "Heat", "year": 1995}}]',
      ),
      movies,
    );
    expect(failed(rows).map((row) => [row.row, !row.ok && row.message])).toEqual([
      [1, 'not a Trakt item (expected an object)'],
      [2, 'not a Trakt watched, ratings, watchlist or history item'],
      [3, 'not a Trakt movie or show'],
    ]);
    expect(okRows(rows).map((row) => row.row)).toEqual([4]);
  });

  it('refuses a JSON object, invalid JSON and a truncated file with 400', async () => {
    for (const content of ['{"movies": []}', '[{"plays": 1,}]', '[{"plays": 1, "movie": {"title": "He', '']) {
      expect(await refusal(parseAll(streamOf(content), movies))).toMatchObject({
        problem: 'unreadable',
        status: 400,
      });
    }
  });
});
