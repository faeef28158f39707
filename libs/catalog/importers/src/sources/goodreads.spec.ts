import { byTitle, fixture, okRows, parseAll } from '../../test/rows';

const goodreads = { source: 'goodreads', category: 'books' } as const;

describe('goodreads source', () => {
  it('maps the exclusive shelves, stars × 2 and 0 as not rated', async () => {
    const rows = await parseAll(fixture('goodreads/goodreads_library_export.csv'), goodreads);
    expect(rows.every((row) => row.ok)).toBe(true);
    expect(
      okRows(rows).map((row) => [
        row.row,
        row.item.title,
        row.entry.status,
        row.entry.score,
        row.entry.finished_at,
      ]),
    ).toEqual([
      [2, 'The Left Hand of Darkness', 'completed', 10, '2023-03-14'],
      [3, 'Dune', 'watching', 8, null],
      [4, 'Fahrenheit 451', 'plan_to_watch', null, null],
      [5, "Harry Potter and the Sorcerer's Stone", 'completed', 6, '2022-12-24'],
      [6, 'The Way of Kings', 'dropped', 4, null],
      [7, 'Braiding Sweetgrass', 'on_hold', null, null],
      [8, 'Untitled, A Book With Bad Data', 'completed', null, null],
      [9, 'The Catcher in the Rye', 'completed', 2, '2019-08-10'],
    ]);
  });

  it('unwraps ISBNs written ="…", prefers the ISBN-13 and derives isbn13 from an ISBN-10', async () => {
    const books = byTitle(await parseAll(fixture('goodreads/goodreads_library_export.csv'), goodreads));
    expect(books.get('The Left Hand of Darkness')!.item).toEqual({
      title: 'The Left Hand of Darkness',
      year: 1969,
      external_ids: { goodreads: '18423', isbn13: '9780441478125' },
      authors: ['Ursula K. Le Guin'],
      isbn: '9780441478125',
      pages: 304,
    });
    expect(books.get('Fahrenheit 451')!.item).toMatchObject({
      isbn: null,
      external_ids: { goodreads: '13079982' },
    });
    expect(books.get("Harry Potter and the Sorcerer's Stone")!.item).toMatchObject({
      isbn: null,
      authors: ['J.K. Rowling', 'Mary GrandPré'],
      year: 1997,
    });
  });

  it('drops an ISBN with a wrong check digit, an impossible date and non-numeric pages, with warnings', async () => {
    const book = byTitle(await parseAll(fixture('goodreads/goodreads_library_export.csv'), goodreads)).get(
      'Untitled, A Book With Bad Data',
    )!;
    expect(book.item).toEqual({
      title: 'Untitled, A Book With Bad Data',
      year: 2013,
      external_ids: { goodreads: '99999991' },
      authors: ['Some Author'],
    });
    expect(book.warnings).toEqual([
      "Date Read '2023/02/30' is not a date and was dropped",
      "isbn '0441478124' is not valid and was dropped",
      "pages 'abc' is not valid and was dropped",
    ]);
  });

  it('takes private notes, else the review as plain text', async () => {
    const books = byTitle(await parseAll(fixture('goodreads/goodreads_library_export.csv'), goodreads));
    expect(books.get("Harry Potter and the Sorcerer's Stone")!.entry.notes).toBe(
      'Reread with my niece,\nshe loved it.',
    );
    expect(books.get('The Left Hand of Darkness')!.entry.notes).toBe(
      'Genly Ai, Estraven \nand the ice.\n\nRead it twice.',
    );
  });
});
