import { byTitle, failed, fixture, okRows, parseAll, refusal, streamOf } from '../../test/rows';

const letterboxd = { source: 'letterboxd', category: 'movies' } as const;

describe('letterboxd source', () => {
  describe('diary.csv (CRLF, quoted commas and line breaks, rewatches)', () => {
    it('gives one row per film, the latest viewing winning', async () => {
      const rows = await parseAll(fixture('letterboxd/diary.csv'), letterboxd);
      expect(okRows(rows)).toHaveLength(6);
      expect(failed(rows)).toEqual([
        { row: 10, ok: false, skipped: false, message: 'the row has neither a title nor an external id' },
      ]);
      const films = byTitle(rows);
      // The Matrix: rows 2 (4½ stars, 2023-01-07) and 5 (rewatch, no rating, 2023-04-14).
      expect(films.get('The Matrix')).toMatchObject({
        row: 5,
        entry: { status: 'completed', score: 9, finished_at: '2023-04-14' },
      });
      // Amélie: row 9 is a viewing from 2021 logged later in the file; row 7 (2023-05-31) stays the latest.
      expect(films.get('Amélie')).toMatchObject({ row: 7, entry: { score: 7, finished_at: '2023-05-31' } });
    });

    it('keeps quoted commas, joins a title broken over two lines, and unescapes doubled quotes', async () => {
      const films = byTitle(await parseAll(fixture('letterboxd/diary.csv'), letterboxd));
      expect(films.get('Crouching Tiger, Hidden Dragon')).toMatchObject({
        row: 3,
        item: { year: 2000 },
        entry: { score: 10, finished_at: '2023-02-10' },
      });
      expect(films.get('Dr. Strangelove or: How I Learned to Stop Worrying and Love the Bomb')).toMatchObject(
        { row: 6, entry: { score: 1 } },
      );
      expect(films.get('The "Burbs"')).toMatchObject({ row: 8, entry: { score: 5 } });
    });

    it('leaves an empty rating empty and drops an impossible date with a warning', async () => {
      const films = byTitle(await parseAll(fixture('letterboxd/diary.csv'), letterboxd));
      expect(films.get('Paris Is Burning')).toMatchObject({
        entry: { score: null, finished_at: '2023-03-01' },
        warnings: [],
      });
      expect(films.get('The "Burbs"')).toMatchObject({
        entry: { finished_at: null },
        warnings: ["Watched Date '2023-13-45' is not a date and was dropped"],
      });
    });

    it('reads every film as completed, without external ids (Letterboxd has none the catalog knows)', async () => {
      for (const row of okRows(await parseAll(fixture('letterboxd/diary.csv'), letterboxd))) {
        expect(row.entry.status).toBe('completed');
        expect(row.item.external_ids).toEqual({});
      }
    });
  });

  it('reviews.csv: the review becomes the notes and survives a later viewing without one', async () => {
    const rows = await parseAll(fixture('letterboxd/reviews.csv'), letterboxd);
    expect(okRows(rows)).toEqual([
      {
        row: 3,
        ok: true,
        item: { title: 'Aftersun', year: 2022, external_ids: {} },
        entry: {
          status: 'completed',
          score: 9,
          progress: null,
          notes: 'Quiet, devastating.\nThe last scene stays.',
          started_at: null,
          finished_at: '2023-09-30',
        },
        plays: [
          { season: null, number: null, watched_at: '2023-08-31T00:00:00.000Z', precision: 'day', cycle: 1 },
          { season: null, number: null, watched_at: '2023-09-30T00:00:00.000Z', precision: 'day', cycle: 2 },
        ],
        warnings: [],
      },
    ]);
  });

  it('ratings.csv: half stars × 2 rounded up, an empty rating is no score, no finish date', async () => {
    const rows = okRows(await parseAll(fixture('letterboxd/ratings.csv'), letterboxd));
    expect(
      rows.map((row) => [row.row, row.item.title, row.entry.status, row.entry.score, row.entry.finished_at]),
    ).toEqual([
      [2, 'Parasite', 'completed', 9, null],
      [3, 'Three Colours: Blue', 'completed', 1, null],
      [4, 'Stalker', 'completed', 10, null],
      [5, 'Hale County This Morning, This Evening', 'completed', 6, null],
      [6, 'Tampopo', 'completed', null, null],
    ]);
  });

  it('watched.csv (with a BOM): completed on the day it was marked watched', async () => {
    const rows = okRows(
      await parseAll(fixture('letterboxd/watched.csv'), { ...letterboxd, fileName: 'watched.csv' }),
    );
    expect(
      rows.map((row) => [row.row, row.item.title, row.item.year, row.entry.status, row.entry.finished_at]),
    ).toEqual([
      [2, 'Parasite', 2019, 'completed', '2022-11-05'],
      [3, 'Three Colours: Blue', 1993, 'completed', '2022-11-06'],
      [4, 'Stalker', 1979, 'completed', '2022-11-07'],
    ]);
  });

  it('watchlist.csv: plan_to_watch, a missing year stays null', async () => {
    const rows = okRows(
      await parseAll(fixture('letterboxd/watchlist.csv'), {
        ...letterboxd,
        fileName: 'letterboxd-export/watchlist.csv',
      }),
    );
    expect(rows.map((row) => [row.item.title, row.item.year, row.entry.status])).toEqual([
      ['Jeanne Dielman, 23 quai du Commerce, 1080 Bruxelles', 1975, 'plan_to_watch'],
      ['Close-Up', 1990, 'plan_to_watch'],
      ['Perfect Days', null, 'plan_to_watch'],
    ]);
  });

  it('refuses watched.csv / watchlist.csv without a file name, since their headers are the same', async () => {
    expect(await refusal(parseAll(fixture('letterboxd/watchlist.csv'), letterboxd))).toMatchObject({
      problem: 'unreadable',
      status: 400,
      message: expect.stringMatching(/watched\.csv and watchlist\.csv/),
    });
  });

  it('refuses a file that is not a Letterboxd export with 400', async () => {
    expect(await refusal(parseAll(streamOf('Title,Year\nHeat,1995\n'), letterboxd))).toMatchObject({
      status: 400,
      message: expect.stringMatching(/not a Letterboxd export/),
    });
  });
});
