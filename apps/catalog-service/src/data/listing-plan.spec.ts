import { rangeFilter, sortSpec } from './listing-plan';
import { planListing, windowPerSegment } from '../domain/catalog-listing';

describe('listing plan', () => {
  it('sorts by title ascending by default, and by relevance when q is given', () => {
    expect(planListing({}).segments).toEqual([{ filter: {}, field: 'title_key', direction: 1 }]);
    const search = planListing({ q: 'The Matr' });
    expect(search.filter).toEqual({ title_prefixes: { $all: ['the', 'matr'] } });
    expect(search.segments.map((s) => s.filter)).toEqual([
      { title_prefixes: { $all: ['the', 'matr'] }, title_words: { $all: ['the', 'matr'] } },
      { title_prefixes: { $all: ['the', 'matr'] }, $nor: [{ title_words: { $all: ['the', 'matr'] } }] },
    ]);
    expect(search.segments.map((s) => s.direction)).toEqual([1, 1]);
  });

  it('reverses relevance completely for order=asc', () => {
    const plan = planListing({ q: 'x', sort: 'relevance', order: 'asc' });
    expect(plan.segments.map((s) => [Object.keys(s.filter), s.direction])).toEqual([
      [['title_prefixes', '$nor'], -1],
      [['title_prefixes', 'title_words'], -1],
    ]);
  });

  it('defaults to descending for every sort but title', () => {
    expect(planListing({ sort: 'year' }).segments[0]).toMatchObject({ field: 'year', direction: -1 });
    expect(planListing({ sort: 'created_at' }).segments[0]).toMatchObject({ field: 'created_at', direction: -1 });
    expect(planListing({ sort: 'title', order: 'desc' }).segments[0]).toMatchObject({ field: 'title_key', direction: -1 });
    expect(planListing({ q: 'x', sort: 'updated_at' }).segments).toHaveLength(1);
  });

  it('filters genre by its case-insensitive key and year exactly', () => {
    expect(planListing({ genre: 'Sci-Fi', year: 1999 }).filter).toEqual({ genre_keys: 'sci-fi', year: 1999 });
  });

  it('puts missing years last in both directions', () => {
    expect(sortSpec('year', 1)).toEqual({ year_missing: 1, year: 1, _id: 1 });
    expect(sortSpec('year', -1)).toEqual({ year_missing: 1, year: -1, _id: -1 });
    expect(rangeFilter('year', -1, 1990)).toEqual({ year_missing: 0, year: { $gte: 1990 } });
    expect(rangeFilter('title_key', 1, 'm')).toEqual({ title_key: { $lte: 'm' } });
  });

  it('splits a page window across consecutive segments', () => {
    const window = { page: 2, limit: 10, skip: 10 };
    expect(windowPerSegment(window, [15, 30])).toEqual([
      { skip: 10, limit: 5 },
      { skip: 0, limit: 5 },
    ]);
    expect(windowPerSegment(window, [3, 30])).toEqual([
      { skip: 0, limit: 0 },
      { skip: 7, limit: 10 },
    ]);
    expect(windowPerSegment(window, [25, 0])).toEqual([
      { skip: 10, limit: 10 },
      { skip: 0, limit: 0 },
    ]);
  });
});
