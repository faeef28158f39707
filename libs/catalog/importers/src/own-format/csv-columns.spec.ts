import { csvHeader, joinList, splitList } from './csv-columns';
import { guardFormula, unguardFormula } from './formula-guard';

describe('CSV export columns', () => {
  it('flattens each category: catalog fields, one column per external id, then the list fields', () => {
    expect(csvHeader('movies')).toEqual([
      'item_id',
      'title',
      'year',
      'description',
      'genres',
      'runtime_minutes',
      'director',
      'external_ids.imdb',
      'external_ids.tmdb',
      'status',
      'score',
      'progress',
      'notes',
      'started_at',
      'finished_at',
      'created_at',
      'updated_at',
    ]);
    expect(csvHeader('tvshows')).toContain('external_ids.tvdb');
    expect(csvHeader('books')).toEqual(
      expect.arrayContaining([
        'authors',
        'isbn',
        'pages',
        'external_ids.isbn13',
        'external_ids.openlibrary',
        'external_ids.goodreads',
      ]),
    );
  });

  it('joins lists with "; " and splits them back, escaping ; and \\ inside values', () => {
    const values = ['Drama', 'Sci-Fi; Fantasy', 'back\\slash', 'end\\'];
    expect(joinList(values)).toBe('Drama; Sci-Fi\\; Fantasy; back\\\\slash; end\\\\');
    expect(splitList(joinList(values))).toEqual(values);
    expect(splitList(' a ;; b ;')).toEqual(['a', 'b']);
  });

  it('guards text a spreadsheet would run as a formula, and unguards it', () => {
    for (const text of ['=1+1', '+cmd', '-x', '@SUM(A1)', '\tx']) {
      expect(guardFormula(text)).toBe(`'${text}`);
      expect(unguardFormula(guardFormula(text))).toBe(text);
    }
    expect(guardFormula("'Salem's Lot")).toBe("'Salem's Lot");
    expect(unguardFormula("'Salem's Lot")).toBe("'Salem's Lot");
  });
});
