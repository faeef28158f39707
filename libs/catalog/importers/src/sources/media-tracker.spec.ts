import { failed, fixture, okRows, parseAll, refusal, streamOf } from '../../test/rows';

describe('media-tracker source (our JSON export)', () => {
  const options = { source: 'media-tracker', category: 'movies' } as const;

  it('reads every field of the items and the entries', async () => {
    const rows = await parseAll(fixture('media-tracker/movies-export.json'), options);
    expect(okRows(rows)[0]).toEqual({
      row: 1,
      ok: true,
      item: {
        title: 'The Matrix',
        year: 1999,
        external_ids: { imdb: 'tt0133093', tmdb: '603' },
        description: 'A hacker learns what the world really is.',
        genres: ['Action', 'Sci-Fi'],
        runtime_minutes: 136,
        director: 'Lana Wachowski, Lilly Wachowski',
      },
      entry: {
        status: 'completed',
        score: 9,
        progress: 136,
        notes: 'Red pill,\nnot blue.',
        started_at: '2024-01-01',
        finished_at: '2024-01-02',
      },
      plays: [],
      warnings: [],
    });
    expect(okRows(rows)[1]).toMatchObject({
      row: 2,
      item: { title: 'Playtime', description: null, genres: [], runtime_minutes: null, director: null },
    });
  });

  it('fails rows that break a rule of the list endpoints, drops a key of another category with a warning, and leaves absent fields absent', async () => {
    const rows = await parseAll(fixture('media-tracker/movies-export.json'), options);
    expect(failed(rows).map((row) => [row.row, !row.ok && row.message])).toEqual([
      [3, 'score must be an integer from 1 to 10, or empty'],
      [5, 'finished_at (2024-05-01) is before started_at (2024-05-02)'],
      [6, 'an entry must be an object with an item'],
    ]);
    expect(okRows(rows)[2]).toEqual({
      row: 4,
      ok: true,
      item: { title: 'Heat', year: 1995, external_ids: { imdb: 'tt0113277' }, runtime_minutes: 170 },
      entry: {
        status: 'on_hold',
        score: null,
        progress: null,
        notes: null,
        started_at: null,
        finished_at: null,
      },
      plays: [],
      warnings: ["external id 'tvdb' does not exist for movies and was dropped"],
    });
  });

  it('refuses another category, another format, or no format, with 400', async () => {
    expect(
      await refusal(
        parseAll(fixture('media-tracker/movies-export.json'), { source: 'media-tracker', category: 'books' }),
      ),
    ).toMatchObject({
      status: 400,
      message: "this export is of category 'movies', not books",
    });
    expect(await refusal(parseAll(streamOf('{"format":"other@2","entries":[]}'), options))).toMatchObject({
      status: 400,
    });
    expect(await refusal(parseAll(streamOf('{"entries":[]}'), options))).toMatchObject({
      status: 400,
      message: expect.stringMatching(/no format/),
    });
  });
});

describe('csv source (our CSV export)', () => {
  const options = { source: 'csv', category: 'books' } as const;

  it('reads the flattened columns back: lists, escaped semicolons, external id columns, guarded formulas', async () => {
    const rows = await parseAll(fixture('media-tracker/books-export.csv'), options);
    expect(okRows(rows).map((row) => [row.row, row.item, row.entry])).toEqual([
      [
        2,
        {
          title: 'The Left Hand of Darkness',
          year: 1969,
          external_ids: { isbn13: '9780441478125', openlibrary: 'OL59863W', goodreads: '18423' },
          description: 'A human envoy on Gethen,\r\nwhere people have no fixed sex.',
          genres: ['Science Fiction', 'Classics'],
          authors: ['Ursula K. Le Guin'],
          isbn: '9780441478125',
          pages: 304,
        },
        {
          status: 'completed',
          score: 10,
          progress: 304,
          notes: 'Read twice, "Winter" stays.',
          started_at: '2023-03-01',
          finished_at: '2023-03-14',
        },
      ],
      [
        3,
        {
          title: '-Ology: A Study',
          year: 2001,
          external_ids: {},
          description: null,
          genres: [],
          authors: ['Smith; Jones', 'Doe'],
          isbn: null,
          pages: null,
        },
        {
          status: 'plan_to_watch',
          score: null,
          progress: null,
          notes: null,
          started_at: null,
          finished_at: null,
        },
      ],
      [
        6,
        {
          title: 'Middlemarch',
          year: 1871,
          external_ids: { isbn13: '9780141439549' },
          description: null,
          genres: [],
          authors: ['George Eliot'],
          isbn: '9780141439549',
          pages: 880,
        },
        { status: 'completed', score: 8, progress: null, notes: null, started_at: null, finished_at: null },
      ],
    ]);
    expect(okRows(rows)[2]!.warnings).toEqual([
      "external id openlibrary 'OL1234X' is not valid and was dropped",
    ]);
  });

  it('fails rows with an unknown status, a bad date or shifted columns', async () => {
    const rows = await parseAll(fixture('media-tracker/books-export.csv'), options);
    expect(failed(rows).map((row) => [row.row, !row.ok && row.message])).toEqual([
      [4, 'status must be one of watching, completed, on_hold, dropped, plan_to_watch'],
      [5, 'started_at must be a date YYYY-MM-DD, or empty'],
      [7, 'the row has 3 cell(s) but the header has 19 columns'],
    ]);
  });

  it("refuses another category's export and a CSV without title and status, with 400", async () => {
    expect(
      await refusal(
        parseAll(fixture('media-tracker/books-export.csv'), { source: 'csv', category: 'movies' }),
      ),
    ).toMatchObject({
      status: 400,
      message: "this is a books export (column 'authors'), not movies",
    });
    expect(await refusal(parseAll(streamOf('name,rating\nHeat,5\n'), options))).toMatchObject({
      status: 400,
    });
  });

  it('accepts the columns in another order, a file with only title and status, and ignores empty rows', async () => {
    const rows = okRows(await parseAll(streamOf('status,title\r\n,\r\nwatching,Dune\r\n , \r\n'), options));
    expect(rows).toEqual([
      {
        row: 3,
        ok: true,
        item: { title: 'Dune', year: null, external_ids: {} },
        entry: {
          status: 'watching',
          score: null,
          progress: null,
          notes: null,
          started_at: null,
          finished_at: null,
        },
        plays: [],
        warnings: [],
      },
    ]);
  });
});
