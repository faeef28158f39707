import { Readable } from 'node:stream';
import { parseImport, type Category, type ExportEntry, type ExportPlay, type ImportItem } from '..';
import { collect, okRows, playsRows, streamOf } from '../../test/rows';
import { csvExport, csvPlaysExport } from './csv-export';
import { jsonExport } from './json-export';

const TIMESTAMPS = { created_at: '2026-01-02T03:04:05.678Z', updated_at: '2026-02-03T04:05:06.789Z' };

const awkwardTitles = [
  'Crouching Tiger, Hidden Dragon',
  'The "Burbs"',
  "=cmd|' /C calc'!A0",
  '-Ology: a film',
  'Amélie — 東京物語 🎬',
  "'Salem's Lot",
  'Two  spaces\tand a tab',
];

function entry(item: ExportEntry['item'], fields: Partial<ExportEntry> = {}): ExportEntry {
  return {
    item,
    status: 'plan_to_watch',
    score: null,
    progress: null,
    notes: null,
    started_at: null,
    finished_at: null,
    ...TIMESTAMPS,
    ...fields,
  };
}

const common = (index: number) => ({
  id: `6561f0c2a1b2c3d4e5f607${String(index).padStart(2, '0')}`,
  title: awkwardTitles[index % awkwardTitles.length]!,
  year: index % 3 === 0 ? null : 1990 + index,
  description: index % 2 === 0 ? null : 'Line one, with a comma;\r\nline two with "quotes".',
  genres: index % 2 === 0 ? [] : ['Drama', 'Sci-Fi; Fantasy', 'back\\slash'],
  created_by: null,
  ...TIMESTAMPS,
});

/** Plays of every precision, of a work or of episodes (a special included), in two cycles. */
const playsOf = (episodes: boolean): ExportPlay[] =>
  (
    [
      ['2024-02-29T21:15:00.000Z', 'exact', 1, 'manual'],
      [null, 'unknown', 1, 'import:trakt'],
      ['2024-03-01T00:00:00.000Z', 'day', 2, 'scrobble:jellyfin'],
      ['1999-01-01T00:00:00.000Z', 'release', 2, 'import:letterboxd'],
    ] as const
  ).map(([watched_at, precision, cycle, source], index) => ({
    season: episodes ? index % 2 : null,
    number: episodes ? index + 1 : null,
    watched_at,
    precision,
    cycle,
    source,
  }));

const fullEntry = (index: number): Partial<ExportEntry> => ({
  status: 'completed',
  score: 1 + (index % 10),
  progress: index,
  notes: '  Seen twice,\r\nonce "in 35mm".\n=SUM(A1)\n',
  started_at: '2024-02-28',
  finished_at: '2024-02-29',
  plays: playsOf(false),
});

/** Entries of every category with every field set and every field empty, titles with the awkward characters. */
const ENTRIES: Record<Category, ExportEntry[]> = {
  movies: [0, 1, 2, 3, 4, 5, 6].map((index) =>
    entry(
      {
        ...common(index),
        runtime_minutes: index % 2 === 0 ? null : 100 + index,
        director: index % 2 === 0 ? null : '+Lana, Lilly Wachowski',
        external_ids: index % 2 === 0 ? {} : { imdb: `tt01330${90 + index}`, tmdb: String(600 + index) },
      },
      index % 2 === 0 ? {} : fullEntry(index),
    ),
  ),
  tvshows: [0, 1, 2, 3].map((index) =>
    entry(
      {
        ...common(index),
        seasons: index % 2 === 0 ? null : 0,
        episodes: index % 2 === 0 ? null : 62,
        network: index % 2 === 0 ? null : '@AMC',
        external_ids: index % 2 === 0 ? {} : { imdb: 'tt0903747', tmdb: '1396', tvdb: `8118${index}` },
      },
      index % 2 === 0
        ? { status: 'watching', progress: 3, started_at: '2023-05-01', plays: playsOf(true) }
        : fullEntry(index),
    ),
  ),
  books: [0, 1, 2, 3].map((index) =>
    entry(
      {
        ...common(index),
        authors: index % 2 === 0 ? [] : ['Ursula K. Le Guin', 'Smith; Jones'],
        isbn: index % 2 === 0 ? null : '9780441478125',
        pages: index % 2 === 0 ? null : 304,
        external_ids:
          index % 2 === 0
            ? {}
            : { isbn13: '9780441478125', openlibrary: 'OL59863W', goodreads: `1842${index}` },
      },
      index % 2 === 0 ? { status: 'dropped', notes: 'x' } : fullEntry(index),
    ),
  ),
};

const FIELDS: Record<Category, string[]> = {
  movies: ['runtime_minutes', 'director'],
  tvshows: ['seasons', 'episodes', 'network'],
  books: ['authors', 'isbn', 'pages'],
};

/** What an import of `entry` must give back: the catalog fields (no id, creator or timestamps) and the list fields. */
function expectedRow(category: Category, exported: ExportEntry) {
  const item: Record<string, unknown> = {
    title: exported.item.title,
    year: exported.item.year,
    external_ids: exported.item.external_ids,
    description: exported.item.description,
    genres: exported.item.genres,
  };
  for (const field of FIELDS[category]) item[field] = exported.item[field];
  const { status, score, progress, notes, started_at, finished_at } = exported;
  return {
    item: item as unknown as ImportItem,
    entry: { status, score, progress, notes, started_at, finished_at },
    plays: exported.plays ?? [],
  };
}

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

async function* listOf(entries: readonly ExportEntry[]): AsyncGenerator<ExportEntry> {
  yield* entries;
}

describe.each(['movies', 'tvshows', 'books'] as const)('export → import round trip of %s', (category) => {
  it.each([
    ['json', 'media-tracker', jsonExport],
    ['csv', 'csv', csvExport],
  ] as const)(
    '%s: parsing the export gives back the same entries, in order, without warnings',
    async (format, source, writer) => {
      const exported = await bytesOf(
        writer(listOf(ENTRIES[category]), { category, exportedAt: new Date('2026-11-21T16:11:00.000Z') }),
      );
      // 5-byte chunks cut multi-byte characters, quotes and CRLFs apart.
      const rows = await collect(parseImport(streamOf(exported, 5), { source, category }));
      expect(rows.every((row) => row.ok)).toBe(true);
      const expected = ENTRIES[category].map((e) => expectedRow(category, e));
      // The list CSV has no plays: they are exported on their own (rows=plays, below).
      const played = format === 'json' ? expected : expected.map((row) => ({ ...row, plays: [] }));
      expect(okRows(rows).map((row) => ({ item: row.item, entry: row.entry, plays: row.plays }))).toEqual(
        played,
      );
      expect(okRows(rows).flatMap((row) => row.warnings)).toEqual([]);
    },
  );
});

describe.each(['movies', 'tvshows', 'books'] as const)('plays CSV → import round trip of %s', (category) => {
  it('gives back every play of every entry, by work, in order', async () => {
    const exported = await bytesOf(csvPlaysExport(listOf(ENTRIES[category])));
    const rows = await collect(parseImport(streamOf(exported, 5), { source: 'csv', category }));
    const played = ENTRIES[category].filter((entry) => (entry.plays ?? []).length > 0);
    expect(playsRows(rows).map((row) => [row.item.title, row.item.year, row.entry, row.plays])).toEqual(
      played.map((entry) => [entry.item.title.trim(), entry.item.year, null, entry.plays]),
    );
  });
});

describe('exports', () => {
  it('JSON: media-tracker/list@1 with format and category first, full items, only the list fields', async () => {
    const exported = ENTRIES.movies[1]!;
    const text = (
      await bytesOf(
        jsonExport(listOf([{ ...exported, user_id: 'leak' } as ExportEntry]), {
          category: 'movies',
          exportedAt: new Date('2026-11-21T16:11:00.000Z'),
        }),
      )
    ).toString('utf8');
    expect(
      text.startsWith(
        '{"format":"media-tracker/list@1","category":"movies","exported_at":"2026-11-21T16:11:00.000Z","entries":[',
      ),
    ).toBe(true);
    expect(JSON.parse(text)).toEqual({
      format: 'media-tracker/list@1',
      category: 'movies',
      exported_at: '2026-11-21T16:11:00.000Z',
      entries: [
        {
          item: exported.item,
          status: exported.status,
          score: exported.score,
          progress: exported.progress,
          notes: exported.notes,
          started_at: exported.started_at,
          finished_at: exported.finished_at,
          ...TIMESTAMPS,
          plays: exported.plays,
        },
      ],
    });
  });

  it('JSON: an empty list is a valid document', async () => {
    const text = (await bytesOf(jsonExport(listOf([]), { category: 'books' }))).toString('utf8');
    expect(JSON.parse(text)).toMatchObject({
      format: 'media-tracker/list@1',
      category: 'books',
      entries: [],
    });
  });

  it('CSV: one header row, CRLF records, external ids as columns, formula-like text guarded', async () => {
    const text = (
      await bytesOf(csvExport(listOf([ENTRIES.books[1]!, ENTRIES.books[2]!]), { category: 'books' }))
    ).toString('utf8');
    const lines = text.split('\r\n');
    expect(lines[0]).toBe(
      'item_id,title,year,description,genres,authors,isbn,pages,external_ids.isbn13,external_ids.openlibrary,external_ids.goodreads,status,score,progress,notes,started_at,finished_at,created_at,updated_at',
    );
    expect(text.charCodeAt(0)).not.toBe(0xfeff);
    expect(text).toContain(
      ',"Ursula K. Le Guin; Smith\\; Jones",9780441478125,304,9780441478125,OL59863W,18421,completed,2,1,',
    );
    // Row of entry 2: title "=cmd|' /C calc'!A0" is written with a leading apostrophe.
    expect(text).toContain("\r\n6561f0c2a1b2c3d4e5f60702,'=cmd|' /C calc'!A0,1992,");
    expect(text.endsWith('\r\n')).toBe(true);
  });

  it.each([
    ['json', jsonExport],
    ['csv', csvExport],
  ] as const)(
    '%s: pulls entries only as fast as the stream is read (memory does not grow with the list)',
    async (_format, writer) => {
      let pulled = 0;
      async function* endless(): AsyncGenerator<ExportEntry> {
        for (;;) {
          pulled += 1;
          yield ENTRIES.movies[1]!;
        }
      }
      const stream = writer(endless(), { category: 'movies' });
      const iterator = stream[Symbol.asyncIterator]();
      await iterator.next();
      await new Promise((resolve) => setTimeout(resolve, 50));
      // One chunk read: the writer has run ahead by at most its buffer (16 KiB batches, a 16 KiB stream buffer).
      expect(pulled).toBeLessThan(500);
      stream.destroy();
    },
  );
});
