import { assertValidCategory, isMediaCategoryId, MEDIA_CATEGORIES, MEDIA_CATEGORY_IDS, mediaCategory, statusLabelsOf } from './categories';
import { DEFAULT_STATUS_LABELS, isListStatus, LIST_STATUSES } from './statuses';

describe('the shipped categories', () => {
  it('are movies, tvshows and books', () => {
    expect(MEDIA_CATEGORY_IDS).toEqual(['books', 'movies', 'tvshows']);
    expect(isMediaCategoryId('books')).toBe(true);
    expect(isMediaCategoryId('games')).toBe(false);
  });

  it.each(MEDIA_CATEGORIES.map((category) => [category.id, category] as const))('%s obeys the rules of every category', (_id, category) => {
    expect(() => assertValidCategory(category)).not.toThrow();
  });

  it('label every status in the words the web app shows', () => {
    expect(statusLabelsOf(mediaCategory('movies'))).toMatchObject({ completed: 'Watched', plan_to_watch: 'Want to watch' });
    expect(statusLabelsOf(mediaCategory('books'))).toMatchObject({ watching: 'Reading', dropped: 'Abandoned' });
    for (const category of MEDIA_CATEGORIES) expect(Object.keys(statusLabelsOf(category)).sort()).toEqual([...LIST_STATUSES].sort());
  });

  it('fall back to the generic labels for a category that names none', () => {
    expect(statusLabelsOf({})).toBe(DEFAULT_STATUS_LABELS);
  });
});

describe('assertValidCategory', () => {
  const valid = { ...mediaCategory('movies') };

  it.each([
    ['an id that is not a URL segment', { ...valid, id: 'Movies' }],
    ['a field named like a common one', { ...valid, fields: { title: valid.fields['director'] } }],
    ['an empty status label', { ...valid, statusLabels: { ...DEFAULT_STATUS_LABELS, dropped: ' ' } }],
    ['a person field that is not a field', { ...valid, personFields: ['cast'] }],
    ['an external id key with a colon', { ...valid, externalIds: { 'im:db': valid.externalIds!['imdb']! } }],
  ])('refuses %s', (_case, definition) => {
    expect(() => assertValidCategory(definition)).toThrow();
  });
});

describe('the list statuses', () => {
  it('are the five stored values', () => {
    expect(LIST_STATUSES).toEqual(['watching', 'completed', 'on_hold', 'dropped', 'plan_to_watch']);
    expect(isListStatus('on_hold')).toBe(true);
    expect(isListStatus('watched')).toBe(false);
  });
});
