import { GOODREADS_ID, IMDB_ID, ISBN13_ID, OPENLIBRARY_ID, resolveExternalIds, settableExternalIdKeys, TMDB_ID, TVDB_ID } from './external-ids';

describe('external id patterns', () => {
  it.each([
    [IMDB_ID, 'tt0133093', 'tt12'],
    [TMDB_ID, '603', '0'],
    [TMDB_ID, '1234567890', '12345678901'],
    [TVDB_ID, '81189', '081189'],
    [OPENLIBRARY_ID, 'OL59863W', 'OL59863X'],
    [GOODREADS_ID, '17934530', '1234567890123'],
  ])('accept the documented format (%#): %s but not %s', (key, valid, invalid) => {
    expect(key.pattern.test(valid)).toBe(true);
    expect(key.pattern.test(invalid)).toBe(false);
  });
});

describe('resolveExternalIds', () => {
  const keys = { isbn13: ISBN13_ID, goodreads: GOODREADS_ID };

  it('applies a change, removes a key set to null and derives the read-only keys', () => {
    expect(resolveExternalIds(keys, { goodreads: '1' }, { goodreads: '2' }, { isbn: '0306406152' })).toEqual({
      isbn13: '9780306406157',
      goodreads: '2',
    });
    expect(resolveExternalIds(keys, { goodreads: '1' }, { goodreads: null }, {})).toEqual({});
  });

  it('lets clients set every key but the derived ones', () => {
    expect(settableExternalIdKeys(keys)).toEqual(['goodreads']);
  });
});
