import { parseImport } from '@mt/importers';
import { parse } from 'csv-parse/sync';
import { Readable } from 'node:stream';
import request from 'supertest';
import { startCatalogHarness, type CatalogHarness } from '../../../test/catalog-harness';
import { asUser, newUserId } from '../../../test/identity-headers';

/** Catalog fields and notes as an attacker writes them: formulas behind a `;`, a line break, spaces or quotes. */
const HOSTILE_ENTRIES = [
  {
    title: 'Hyperlink',
    year: 2001,
    description: 'x;=HYPERLINK("http://a")',
    director: 'a;=1+1',
    genres: ['Drama', '=2+2'],
  },
  {
    title: '-1+1',
    year: 2002,
    description: 'first line\r\n@SUM(A1)',
    director: ' ＝1+1',
    genres: ['a;+3+3'],
  },
  { title: '"=cmd"', year: 2003, description: 'x;\t=1', director: 'b; "-1+1"', genres: ['Sci-Fi'] },
];
const HOSTILE_NOTES = ['ok\n=3+3', 'x; -2+2', '+4+4'];

/** A cell a spreadsheet may run: a formula character first (after the spaces and quotes some readers drop), or a tab or CR. */
const FORMULA_CELL = /^(?:[\t\r]|[\s"]*[=+\-@＝＋－＠])/;
/** Plain numbers are numbers, not formulas (docs/api.md). */
const NUMBER = /^-?\d+(?:\.\d+)?$/;

const formulaCells = (rows: string[][]) =>
  rows.flat().filter((cell) => FORMULA_CELL.test(cell) && !NUMBER.test(cell.trim()));

describe('CSV export against formula injection', () => {
  let h: CatalogHarness;
  let csv: string;
  const attacker = newUserId();
  const victim = newUserId();

  beforeAll(async () => {
    h = await startCatalogHarness({ category: 'movies' });
    for (const [index, fields] of HOSTILE_ENTRIES.entries()) {
      const created = await request(h.app).post('/api/v1/movies').set(asUser(attacker)).send(fields);
      expect(created.status).toBe(201);
      const added = await request(h.app)
        .post('/api/v1/movies/list')
        .set(asUser(victim))
        .send({ item_id: created.body.id, notes: HOSTILE_NOTES[index] });
      expect(added.status).toBe(201);
    }
    const res = await request(h.app)
      .get('/api/v1/movies/list/export?format=csv')
      .set(asUser(victim))
      .buffer(true)
      .parse((stream, done) => {
        let text = '';
        stream.setEncoding('utf8');
        stream.on('data', (chunk: string) => (text += chunk));
        stream.on('end', () => done(null, text));
      });
    expect(res.status).toBe(200);
    csv = res.body as string;
  }, 60_000);
  afterAll(() => h.close());

  it('has no cell starting with a formula character when read with , as separator', () => {
    const rows = parse(csv, { delimiter: ',' }) as string[][];
    expect(rows).toHaveLength(HOSTILE_ENTRIES.length + 1);
    expect(formulaCells(rows)).toEqual([]);
  });

  it('has no cell starting with a formula character when read with ; as separator', () => {
    // The quotes of a `,` file sit in mid-cell for a `;` reader, which then also ends a row at every line break.
    const rows = parse(csv, {
      delimiter: ';',
      relax_quotes: true,
      relax_column_count: true,
      skip_empty_lines: true,
    }) as string[][];
    expect(rows.length).toBeGreaterThan(HOSTILE_ENTRIES.length);
    expect(formulaCells(rows)).toEqual([]);
  });

  it('is read back by the csv import to the very values the attacker wrote', async () => {
    const read: unknown[] = [];
    for await (const row of parseImport(Readable.from([Buffer.from(csv)]), {
      source: 'csv',
      category: 'movies',
    })) {
      expect(row.ok).toBe(true);
      if (row.ok)
        read.push({
          title: row.item.title,
          description: row.item['description'],
          director: row.item['director'],
          genres: row.item['genres'],
          notes: row.entry?.notes,
        });
    }
    expect(read).toEqual(
      HOSTILE_ENTRIES.map((entry, index) => ({
        title: entry.title,
        description: entry.description,
        director: entry.director.trim(),
        genres: entry.genres,
        notes: HOSTILE_NOTES[index],
      })),
    );
  });
});
