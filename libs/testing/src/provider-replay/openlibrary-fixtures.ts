/**
 * Recorded-style answers of Open Library's API, shaped as its developer pages document them
 * (https://openlibrary.org/developers/api): the values are those of the real work, trimmed to the fields the
 * adapter reads plus a few it ignores; the editions are three of the work's many.
 */

/** A work, https://openlibrary.org/dev/docs/api/books ("Works API": /works/{id}.json). */
export const OPENLIBRARY_WORKS = [
  {
    key: '/works/OL893415W',
    title: 'Dune',
    type: { key: '/type/work' },
    // The works API gives a description either as a string or as a typed text object; this is the object form.
    description: { type: '/type/text', value: 'Set on the desert planet Arrakis, Dune is the story of the boy Paul Atreides.' },
    subjects: ['Science fiction', 'Dune (Imaginary place)', 'Fiction', 'Life on other planets', 'Ecology', 'Prophecies'],
    covers: [11481354, 8231856],
    first_publish_date: '1965',
    authors: [{ type: { key: '/type/author_role' }, author: { key: '/authors/OL79034A' } }],
  },
];

/** Editions, https://openlibrary.org/dev/docs/api/books ("Editions API": /books/{id}.json, /isbn/{isbn}.json, /works/{id}/editions.json). */
export const OPENLIBRARY_EDITIONS = [
  // The earliest listed edition has no ISBN: an import takes the first one that has one.
  { key: '/books/OL26320651M', title: 'Dune', works: [{ key: '/works/OL893415W' }], publish_date: '1965', number_of_pages: 412, covers: [] as number[] },
  {
    key: '/books/OL7353617M',
    title: 'Dune',
    works: [{ key: '/works/OL893415W' }],
    isbn_10: ['0441172717'],
    isbn_13: ['9780441172719'],
    publish_date: 'September 1, 1990',
    number_of_pages: 535,
    covers: [8231856],
  },
  {
    key: '/books/OL32441541M',
    title: 'Dune (40th anniversary edition)',
    works: [{ key: '/works/OL893415W' }],
    isbn_13: ['9780340960196'],
    publish_date: '2005',
    number_of_pages: 604,
    covers: [11481354],
  },
];

/** Authors, https://openlibrary.org/dev/docs/api/authors (/authors/{id}.json). */
export const OPENLIBRARY_AUTHORS = [{ key: '/authors/OL79034A', name: 'Frank Herbert', type: { key: '/type/author' }, birth_date: '8 October 1920' }];
