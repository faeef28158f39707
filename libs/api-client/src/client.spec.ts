import { allPages } from './client';

const entry = (n: number) => ({ item_id: `id-${n}` });
const page = (numbers: number[], pageNumber: number, totalPages: number, extra: object = {}) => ({
  data: numbers.map(entry),
  page: pageNumber,
  limit: 2,
  total: totalPages * 2,
  total_pages: totalPages,
  ...extra,
});

async function collect<T>(items: AsyncGenerator<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

describe('allPages', () => {
  it('reads offset pages until the last one', async () => {
    const asked: unknown[] = [];
    const pages = [page([1, 2], 1, 3), page([3, 4], 2, 3), page([5], 3, 3)];
    const items = await collect(allPages((position) => (asked.push(position), Promise.resolve(pages[asked.length - 1]!))));
    expect(items.map((item) => item.item_id)).toEqual(['id-1', 'id-2', 'id-3', 'id-4', 'id-5']);
    expect(asked).toEqual([{ page: 1 }, { page: 2 }, { page: 3 }]);
  });

  it('yields an entry once when the list shifted between two offset pages', async () => {
    const pages = [page([1, 2], 1, 2), page([2, 3], 2, 2)];
    let call = 0;
    const items = await collect(allPages(() => Promise.resolve(pages[call++]!)));
    expect(items.map((item) => item.item_id)).toEqual(['id-1', 'id-2', 'id-3']);
  });

  it('switches to cursors as soon as the server sends next_cursor, and stops at a null cursor', async () => {
    const asked: unknown[] = [];
    const pages = [page([1, 2], 1, 3, { next_cursor: 'c2' }), page([3, 4], 1, 3, { next_cursor: 'c3' }), page([5], 1, 3, { next_cursor: null })];
    const items = await collect(allPages((position) => (asked.push(position), Promise.resolve(pages[asked.length - 1]!))));
    expect(items).toHaveLength(5);
    expect(asked).toEqual([{ page: 1 }, { cursor: 'c2' }, { cursor: 'c3' }]);
  });

  it('stops on an empty page even when total_pages says more (the list shrank)', async () => {
    let calls = 0;
    const items = await collect(allPages(() => (calls++, Promise.resolve(page([], 1, 5)))));
    expect(items).toEqual([]);
    expect(calls).toBe(1);
  });
});
