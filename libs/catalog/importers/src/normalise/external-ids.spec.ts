import { externalIdsOf } from './external-ids';

describe('externalIdsOf', () => {
  it('keeps valid ids in their stored form: imdb tt + 7–10 digits, tmdb/tvdb positive integers as strings', () => {
    const warnings: string[] = [];
    expect(externalIdsOf('tvshows', { imdb: 'TT0903747', tmdb: 1396, tvdb: ' 81189 ' }, warnings)).toEqual({
      imdb: 'tt0903747',
      tmdb: '1396',
      tvdb: '81189',
    });
    expect(externalIdsOf('movies', { imdb: 'tt12345678901' }, [])).toEqual({});
    expect(warnings).toEqual([]);
  });

  it('books: isbn13 from an ISBN-10 or 13, Open Library works/editions (also as paths), Goodreads digits', () => {
    expect(
      externalIdsOf(
        'books',
        { isbn13: '0441478123', openlibrary: '/works/OL45883W', goodreads: '18423' },
        [],
      ),
    ).toEqual({
      isbn13: '9780441478125',
      openlibrary: 'OL45883W',
      goodreads: '18423',
    });
    expect(externalIdsOf('books', { openlibrary: 'OL7353617M' }, [])).toEqual({ openlibrary: 'OL7353617M' });
  });

  it('drops ids the catalog would refuse: tmdb over 10 digits, goodreads over 12', () => {
    const warnings: string[] = [];
    expect(externalIdsOf('movies', { tmdb: '12345678901' }, warnings)).toEqual({});
    expect(externalIdsOf('movies', { tmdb: '1234567890' }, warnings)).toEqual({ tmdb: '1234567890' });
    expect(externalIdsOf('books', { goodreads: '1234567890123' }, warnings)).toEqual({});
    expect(warnings).toHaveLength(2);
  });

  it('drops invalid values and keys of other categories with one warning each; empty values silently', () => {
    const warnings: string[] = [];
    const ids = externalIdsOf(
      'movies',
      { imdb: 'tt12', tmdb: '0', tvdb: '81189', goodreads: '', isbn13: null },
      warnings,
    );
    expect(ids).toEqual({});
    expect(warnings).toEqual([
      "external id imdb 'tt12' is not valid and was dropped",
      "external id tmdb '0' is not valid and was dropped",
      "external id 'tvdb' does not exist for movies and was dropped",
    ]);
  });
});
