import { byTitle, fixture, okRows, parseAll, skipped } from '../../test/rows';

describe('imdb source', () => {
  it('ratings.csv into movies: films only, 1–10 as it is, TV rows skipped', async () => {
    const rows = await parseAll(fixture('imdb/ratings.csv'), { source: 'imdb', category: 'movies' });
    expect(rows).toHaveLength(10);
    expect(okRows(rows).map((row) => [row.row, row.item.title, row.entry.status, row.entry.score])).toEqual([
      [2, 'The Shawshank Redemption', 'completed', 10],
      [3, 'The Matrix', 'completed', 9],
      [7, 'Die Hard', 'completed', 7],
      [8, 'Pulp Fiction', 'completed', 8],
      [9, 'Seven Samurai', 'completed', null],
      [10, "The Room, Director's Cut", 'completed', 6],
    ]);
    expect(skipped(rows).map((row) => [row.row, !row.ok && row.message])).toEqual([
      [4, 'a "TV Series" row is not imported into movies'],
      [5, 'a "TV Mini Series" row is not imported into movies'],
      [6, 'a "TV Episode" row is not imported into movies'],
      [11, 'a "Video Game" row is not imported into movies'],
    ]);
  });

  it('fills imdb id, runtime, director and genres, with quoted commas kept in one cell', async () => {
    const films = byTitle(
      await parseAll(fixture('imdb/ratings.csv'), { source: 'imdb', category: 'movies' }),
    );
    expect(films.get('The Matrix')!.item).toEqual({
      title: 'The Matrix',
      year: 1999,
      external_ids: { imdb: 'tt0133093' },
      genres: ['Action', 'Sci-Fi'],
      runtime_minutes: 136,
      director: 'Lana Wachowski, Lilly Wachowski',
    });
    expect(films.get('The Matrix')!.entry).toEqual({
      status: 'completed',
      score: 9,
      progress: null,
      notes: null,
      started_at: null,
      finished_at: null,
    });
  });

  it('drops an invalid imdb id with a warning and keeps the row', async () => {
    const films = byTitle(
      await parseAll(fixture('imdb/ratings.csv'), { source: 'imdb', category: 'movies' }),
    );
    expect(films.get("The Room, Director's Cut")).toMatchObject({
      item: { external_ids: {} },
      warnings: ["external id imdb 'tt12345' is not valid and was dropped"],
    });
  });

  it('ratings.csv into tvshows: series and mini series only, without movie fields', async () => {
    const rows = await parseAll(fixture('imdb/ratings.csv'), { source: 'imdb', category: 'tvshows' });
    expect(skipped(rows)).toHaveLength(8);
    expect(okRows(rows).map((row) => row.item)).toEqual([
      {
        title: 'Breaking Bad',
        year: 2008,
        external_ids: { imdb: 'tt0903747' },
        genres: ['Crime', 'Drama', 'Thriller'],
      },
      {
        title: 'Cosmos: A Spacetime Odyssey',
        year: 2014,
        external_ids: { imdb: 'tt2395695' },
        genres: ['Documentary'],
      },
    ]);
  });

  it('watchlist.csv (with a BOM): plan_to_watch, keeping a rating given to a listed title', async () => {
    const rows = await parseAll(fixture('imdb/watchlist.csv'), { source: 'imdb', category: 'movies' });
    expect(
      okRows(rows).map((row) => [
        row.row,
        row.item.title,
        row.item.external_ids.imdb,
        row.entry.status,
        row.entry.score,
      ]),
    ).toEqual([
      [2, 'Oppenheimer', 'tt15398776', 'plan_to_watch', null],
      [4, 'Life Is Beautiful', 'tt0118799', 'plan_to_watch', 9],
    ]);
    expect(skipped(rows).map((row) => row.row)).toEqual([3]);
  });
});
