import { byTitle, failed, fixture, okRows, parseAll } from '../../test/rows';

const storygraph = { source: 'storygraph', category: 'books' } as const;

describe('storygraph source', () => {
  it('maps the read statuses and quarter stars (× 2 rounded up)', async () => {
    const rows = await parseAll(fixture('storygraph/storygraph_export.csv'), storygraph);
    expect(okRows(rows).map((row) => [row.row, row.item.title, row.entry.status, row.entry.score])).toEqual([
      [2, 'Piranesi', 'completed', 9],
      [3, 'The Fifth Season', 'completed', 8],
      [4, 'The Overstory', 'dropped', 3],
      [5, 'Sea of Tranquility', 'watching', null],
      [6, 'Good Omens', 'on_hold', null],
      [7, 'Middlemarch', 'plan_to_watch', null],
    ]);
    expect(failed(rows)).toEqual([
      { row: 8, ok: false, skipped: false, message: 'the row has neither a title nor an external id' },
    ]);
  });

  it('dates from the latest reading of Dates Read', async () => {
    const books = byTitle(await parseAll(fixture('storygraph/storygraph_export.csv'), storygraph));
    const dates = (title: string) => [
      books.get(title)!.entry.started_at,
      books.get(title)!.entry.finished_at,
    ];
    expect(dates('Piranesi')).toEqual(['2024-02-12', '2024-02-20']);
    expect(dates('The Fifth Season')).toEqual(['2023-01-02', '2023-01-20']);
    expect(dates('The Overstory')).toEqual(['2024-03-02', '2024-03-15']);
    expect(dates('Sea of Tranquility')).toEqual(['2024-04-02', null]);
    expect(dates('Middlemarch')).toEqual([null, null]);
  });

  it('reads ISBNs (10 and 13) and ignores StoryGraph ids; authors split; review as notes', async () => {
    const books = byTitle(await parseAll(fixture('storygraph/storygraph_export.csv'), storygraph));
    expect(books.get('Good Omens')!.item).toEqual({
      title: 'Good Omens',
      year: null,
      external_ids: { isbn13: '9780060853983' },
      authors: ['Terry Pratchett', 'Neil Gaiman'],
      isbn: '0060853980',
    });
    expect(books.get('Sea of Tranquility')!.item).toEqual({
      title: 'Sea of Tranquility',
      year: null,
      external_ids: {},
      authors: ['Emily St. John Mandel'],
    });
    expect(books.get('The Overstory')!.entry.notes).toBe('Too long,\nbut beautiful.');
  });
});
