import type { Category } from '@mt/importers';
import type { SeedInput } from './seed';

/** Catalog entries with the awkward parts of a CSV: commas, quotes, line breaks, a formula, a `;` in a list. */
export const CATALOG_FIXTURE: Record<Category, SeedInput[]> = {
  movies: [
    { title: 'The Matrix', year: 1999, genres: ['Science Fiction', 'Action'], runtime_minutes: 136, director: 'Lana Wachowski', external_ids: { imdb: 'tt0133093', tmdb: '603' } },
    { title: 'Crouching Tiger, "Hidden" Dragon', year: 2000, description: 'line one\r\nline two', genres: ['Drama; Wuxia'], external_ids: { imdb: 'tt0190332' } },
    { title: '=1+1 Title', year: null, description: '-minus', genres: [] },
  ],
  tvshows: [
    { title: 'Breaking Bad', year: 2008, genres: ['Drama'], seasons: 5, episodes: 62, network: 'AMC', external_ids: { imdb: 'tt0903747', tmdb: '1396', tvdb: '81189' } },
    { title: 'Show, "With" Quotes', year: 2011, description: 'a\nb', network: '@Network' },
    { title: 'Plain Show', year: null },
  ],
  books: [
    { title: 'Dune', year: 1965, genres: ['Science Fiction'], authors: ['Frank Herbert'], isbn: '9780441478125', pages: 412, external_ids: { openlibrary: 'OL893415W', goodreads: '234225' } },
    { title: 'Book, "Two"', year: 1990, authors: ['A; B', 'C\\D'], isbn: '0306406152', description: '+plus' },
    { title: 'No Year Book', year: null, authors: [] },
  ],
};

export const LIST_FIXTURE = [
  { status: 'completed', score: 9, progress: 136, notes: 'rewatched  twice\r\nwith "friends", again', started_at: '2024-01-02', finished_at: '2024-01-03' },
  { status: 'watching', score: null, progress: null, notes: '=cmd|calc', started_at: '2024-05-06', finished_at: null },
  { status: 'plan_to_watch', score: 3, progress: 0, notes: null, started_at: null, finished_at: null },
] as const;

