import { IMPORT_LIMITS } from '../limits';
import type { ImportPlay } from '../model';
import { byTitle, failed, fixture, okRows, parseAll, playsRows, refusal, streamOf } from '../../test/rows';

const day = (date: string) => ({ watched_at: `${date}T00:00:00.000Z`, precision: 'day' });
const at = (instant: string) => ({ watched_at: instant, precision: 'exact' });
const unknown = { watched_at: null, precision: 'unknown' };
const work = { season: null, number: null };
const episode = (season: number, number: number) => ({ season, number });
/** Plays as [season, number, watched_at, precision] tuples: a show's plays read as a table. */
const table = (plays: readonly ImportPlay[]) =>
  plays.map((play) => [play.season, play.number, play.watched_at, play.precision]);

describe('plays read from each source', () => {
  describe('trakt', () => {
    it('watched-shows.json: every episode with its play count, the latest play dated, specials included', async () => {
      const shows = byTitle(
        await parseAll(fixture('trakt/watched-shows.json'), { source: 'trakt', category: 'tvshows' }),
      );
      expect(table(shows.get('Breaking Bad')!.plays)).toEqual([
        [0, 1, '2014-01-01T20:00:00.000Z', 'exact'],
        [0, 2, '2014-01-02T20:00:00.000Z', 'exact'],
        // S1E1 was played twice: Trakt keeps the date of the latest play only.
        [1, 1, null, 'unknown'],
        [1, 1, '2014-02-01T20:00:00.000Z', 'exact'],
        ...[2, 3, 4, 5, 6, 7].map((number) => [1, number, `2014-02-0${number}T20:00:00.000Z`, 'exact']),
        [2, 1, '2015-02-27T21:00:00.000Z', 'exact'],
        [2, 2, '2015-02-28T21:00:00.000Z', 'exact'],
        [2, 3, '2015-03-01T21:00:00.000Z', 'exact'],
      ]);
      // Progress stays the distinct regular episodes played.
      expect(shows.get('Breaking Bad')!.entry.progress).toBe(10);
      expect(shows.get('Game of Thrones')!.plays).toEqual([]);
      // Trakt never says whether a show was finished: the plays decide.
      expect(
        okRows(
          await parseAll(fixture('trakt/watched-shows.json'), { source: 'trakt', category: 'tvshows' }),
        ).map((row) => row.playsDecideStatus),
      ).toEqual([true, true]);
      expect(
        okRows(
          await parseAll(fixture('trakt/watched-movies.json'), { source: 'trakt', category: 'movies' }),
        ).map((row) => row.playsDecideStatus),
      ).toEqual([undefined, undefined, undefined]);
    });

    it('watched-movies.json: `plays` plays, the latest at last_watched_at (UTC), the others undated', async () => {
      const films = byTitle(
        await parseAll(fixture('trakt/watched-movies.json'), { source: 'trakt', category: 'movies' }),
      );
      expect(films.get('Batman Begins')!.plays).toEqual([
        { ...work, ...unknown },
        { ...work, ...at('2014-10-11T23:30:54.000Z') },
      ]);
      expect(films.get('Spirited Away')!.plays).toEqual([{ ...work, ...at('2021-06-30T20:05:00.000Z') }]);
    });

    it('watched-history.json: every element a play, a movie gathering all of its plays in file order', async () => {
      const films = byTitle(
        await parseAll(fixture('trakt/watched-history.json'), { source: 'trakt', category: 'movies' }),
      );
      expect(films.get('The Thing')!.plays.map((play) => play.watched_at)).toEqual([
        '2020-05-01T20:00:00.000Z',
        '2023-10-31T22:30:00.000Z',
        '2021-10-31T22:30:00.000Z',
      ]);
    });

    it('watched-history.json into tvshows: an episode element is a play of its show, which is being watched', async () => {
      const rows = await parseAll(fixture('trakt/watched-history.json'), {
        source: 'trakt',
        category: 'tvshows',
      });
      expect(
        okRows(rows).map((row) => [row.item.title, row.entry.status, row.entry.progress, row.plays]),
      ).toEqual([['Breaking Bad', 'watching', 1, [{ ...episode(1, 1), ...at('2023-11-01T19:00:00.000Z') }]]]);
    });

    it('fails a row whose play counts exceed what one entry may have, without expanding them', async () => {
      const show = (plays: number) =>
        `{"plays": 1, "show": {"title": "Soap", "year": 1990}, "seasons": [{"number": 1, "episodes": [{"number": 1, "plays": ${plays}, "last_watched_at": null}]}]}`;
      const rows = await parseAll(streamOf(`[${show(1e15)}, ${show(3)}]`), {
        source: 'trakt',
        category: 'tvshows',
      });
      expect(failed(rows).map((row) => [row.row, !row.ok && row.message])).toEqual([
        [1, `the row has ${1e15} plays, more than the ${IMPORT_LIMITS.maxRowPlays} one entry may have`],
      ]);
      expect(okRows(rows)[0]!.plays).toHaveLength(3);
    });

    it('refuses a file whose plays together exceed the limit with 413', async () => {
      const film = `{"plays": 4, "last_watched_at": null, "movie": {"title": "Heat", "year": 1995}}`;
      const limits = { ...IMPORT_LIMITS, maxPlays: 10 };
      expect(
        await refusal(
          parseAll(streamOf(`[${film}, ${film}, ${film}]`), { source: 'trakt', category: 'movies', limits }),
        ),
      ).toMatchObject({
        problem: 'too_large',
        status: 413,
        limit: 'maxPlays',
      });
    });
  });

  describe('letterboxd', () => {
    it('diary.csv: every row a play on its Watched Date, a Rewatch opening the next cycle', async () => {
      const films = byTitle(
        await parseAll(fixture('letterboxd/diary.csv'), { source: 'letterboxd', category: 'movies' }),
      );
      expect(films.get('The Matrix')!.plays).toEqual([
        { ...work, ...day('2023-01-07'), cycle: 1 },
        { ...work, ...day('2023-04-14'), cycle: 2 },
      ]);
      // Logged later in the file but watched first: the first viewing opens cycle 1, flag or not.
      expect(films.get('Amélie')!.plays).toEqual([
        { ...work, ...day('2021-03-03'), cycle: 1 },
        { ...work, ...day('2023-05-31'), cycle: 1 },
      ]);
      // An impossible Watched Date: the viewing is kept, its date unknown.
      expect(films.get('The "Burbs"')!.plays).toEqual([{ ...work, ...unknown, cycle: 1 }]);
    });

    it('ratings, watched and watchlist files have no viewings: no plays', async () => {
      for (const file of ['ratings.csv', 'watched.csv', 'watchlist.csv']) {
        const rows = await parseAll(fixture(`letterboxd/${file}`), {
          source: 'letterboxd',
          category: 'movies',
          fileName: file,
        });
        expect(okRows(rows).flatMap((row) => row.plays)).toEqual([]);
      }
    });
  });

  describe('goodreads', () => {
    it('Read Count readings, the latest on Date Read; a read book at least one, others as counted', async () => {
      const books = byTitle(
        await parseAll(fixture('goodreads/goodreads_library_export.csv'), {
          source: 'goodreads',
          category: 'books',
        }),
      );
      expect(books.get('The Left Hand of Darkness')!.plays).toEqual([
        { ...work, ...unknown },
        { ...work, ...day('2023-03-14') },
      ]);
      expect(books.get('The Catcher in the Rye')!.plays).toEqual([{ ...work, ...day('2019-08-10') }]);
      // Date Read 2023/02/30 is no date: read once, when unknown.
      expect(books.get('Untitled, A Book With Bad Data')!.plays).toEqual([{ ...work, ...unknown }]);
      expect(books.get('Dune')!.plays).toEqual([]);
      expect(books.get('Fahrenheit 451')!.plays).toEqual([]);
    });
  });

  describe('media-tracker (our JSON)', () => {
    const file = (plays: unknown) =>
      JSON.stringify({
        format: 'media-tracker/list@1',
        category: 'tvshows',
        entries: [{ item: { title: 'Severance', year: 2022, external_ids: {} }, status: 'watching', plays }],
      });
    const parse = (plays: unknown) =>
      parseAll(streamOf(file(plays)), { source: 'media-tracker', category: 'tvshows' });

    it('reads every play as exported, source and cycle included', async () => {
      const plays = [
        {
          season: 1,
          number: 1,
          watched_at: '2022-02-18T21:00:00.000Z',
          precision: 'exact',
          cycle: 1,
          source: 'manual',
        },
        { season: 1, number: 2, watched_at: null, precision: 'unknown', cycle: 1, source: 'import:trakt' },
        {
          season: 1,
          number: 1,
          watched_at: '2022-02-18T00:00:00.000Z',
          precision: 'release',
          cycle: 2,
          source: 'scrobble:plex',
        },
      ];
      expect(okRows(await parse(plays))[0]!.plays).toEqual(plays);
      expect(okRows(await parse(undefined))[0]!.plays).toEqual([]);
    });

    it.each([
      [
        { season: 1, number: null, watched_at: null, precision: 'unknown' },
        'plays[0]: a play needs both season (0–10000) and number (1–10000), or neither',
      ],
      [
        { season: null, number: null, watched_at: '2022-02-18', precision: 'exact' },
        "plays[0]: a play's watched_at must be a date-time, and empty exactly when its precision is unknown",
      ],
      [
        { season: null, number: null, watched_at: '2022-02-18T00:00:00Z', precision: 'unknown' },
        "plays[0]: a play's watched_at must be a date-time, and empty exactly when its precision is unknown",
      ],
      [
        { season: null, number: null, watched_at: null, precision: 'someday' },
        "plays[0]: a play's precision must be one of exact, day, unknown, release",
      ],
      [
        { season: null, number: null, watched_at: null, precision: 'unknown', cycle: 0 },
        "plays[0]: a play's cycle must be a whole number of at least 1",
      ],
      [
        { season: null, number: null, watched_at: null, precision: 'unknown', source: 'elsewhere' },
        "plays[0]: a play's source must be manual, import:<source> or scrobble:<server>",
      ],
      ['a play', 'plays[0]: a play must be an object'],
    ])('fails the entry with a play that breaks a rule: %j', async (play, message) => {
      expect(failed(await parse([play]))).toEqual([{ row: 1, ok: false, skipped: false, message }]);
    });
  });

  describe('csv rows=plays (our plays CSV)', () => {
    const header = 'item_id,title,year,season,number,watched_at,precision,cycle,source\r\n';
    it('gathers the plays of each work into one row without an entry', async () => {
      const rows = playsRows(
        await parseAll(
          streamOf(
            `${header}a1,Severance,2022,1,1,2022-02-18T21:00:00.000Z,exact,1,manual\r\n` +
              `b2,Heat,1995,,,,unknown,1,import:letterboxd\r\n` +
              `a1,Severance,2022,1,2,,unknown,2,manual\r\n`,
          ),
          { source: 'csv', category: 'tvshows' },
        ),
      );
      expect(rows.map((row) => [row.row, row.item.title, row.item.year, row.entry, row.plays])).toEqual([
        [
          2,
          'Severance',
          2022,
          null,
          [
            { ...episode(1, 1), ...at('2022-02-18T21:00:00.000Z'), cycle: 1, source: 'manual' },
            { ...episode(1, 2), ...unknown, cycle: 2, source: 'manual' },
          ],
        ],
        [3, 'Heat', 1995, null, [{ ...work, ...unknown, cycle: 1, source: 'import:letterboxd' }]],
      ]);
    });

    it('fails a row with a play that breaks a rule', async () => {
      const rows = await parseAll(streamOf(`${header}a1,Severance,2022,1,x,,unknown,1,manual\r\n`), {
        source: 'csv',
        category: 'tvshows',
      });
      expect(failed(rows)).toEqual([
        {
          row: 2,
          ok: false,
          skipped: false,
          message: 'a play needs both season (0–10000) and number (1–10000), or neither',
        },
      ]);
    });
  });
});
