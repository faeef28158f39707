import { newId } from '../../domain/ids';
import { changedSinceWalkInCode, changedSinceWalkInQuery, type ChangedSinceWalk, type CursorQuery } from './changed-since-walk';
import { cursorReadFilter } from '../listing-cursor';
import type { EntryListingRow } from '../../domain/records/catalog-entry.record';
import type { CursorRead } from '../../domain/ports/catalog-listing.port';
import type { EntryFilter, OrderedSegment } from '../../domain/catalog-listing';

const WALK_BEGAN = new Date(Date.UTC(2026, 0, 10));
const BEFORE = new Date(Date.UTC(2026, 0, 1));
const AFTER = new Date(Date.UTC(2026, 0, 20));

/** Twenty rows in title order; rows 3–10 (more than a page of 5) changed after the walk began. */
const ROWS = Array.from({ length: 20 }, (_, i) => ({
  _id: newId(),
  title_key: `title ${String(i).padStart(2, '0')}`,
  updated_at: i >= 3 && i <= 10 ? AFTER : BEFORE,
})) as unknown as EntryListingRow[];

const BY_TITLE: OrderedSegment = { filter: {}, field: 'title_key', direction: 1 };

/**
 * The queries a path runs: each one's filter (built as the repository builds it) is recorded, and the rows are
 * what a server would return for it here (the title order after `start`, unchanged rows only when the filter
 * says so) — no store.
 */
function recordingQuery() {
  const filters: EntryFilter[] = [];
  const query: CursorQuery = async (read) => {
    filters.push(cursorReadFilter(read));
    const after = read.start ? ROWS.findIndex((row) => row._id.toHexString() === read.start!.id) + 1 : 0;
    const changedUpTo = read.changedUpTo;
    const matching = ROWS.slice(after).filter((row) => !changedUpTo || row.updated_at <= changedUpTo);
    return matching.slice(0, read.limit);
  };
  return { filters, query };
}

const titles = (rows: EntryListingRow[]) => rows.map((row) => row.title_key);
const unchangedTitles = ROWS.filter((row) => row.updated_at <= WALK_BEGAN).map((row) => row.title_key);

async function page(path: ChangedSinceWalk, read: Partial<CursorRead> = {}) {
  const { filters, query } = recordingQuery();
  const rows = await path({ segment: BY_TITLE, start: { key: ROWS[0]!.title_key, id: ROWS[0]!._id.toHexString() }, changedUpTo: WALK_BEGAN, limit: 5, ...read }, query);
  return { rows, filters };
}

describe('leaving out rows changed since the walk began', () => {
  it('puts updated_at <= the walk start into the one query on the default (MongoDB) path', async () => {
    const { rows, filters } = await page(changedSinceWalkInQuery);
    expect(filters).toHaveLength(1);
    expect(filters[0]).toMatchObject({ updated_at: { $lte: WALK_BEGAN }, $or: expect.any(Array) });
    expect(titles(rows)).toEqual(unchangedTitles.slice(1, 6));
  });

  it('keeps the condition out of the query on the sorting-server adapter and filters the rows read until the page is full', async () => {
    const { rows, filters } = await page(changedSinceWalkInCode);
    expect(filters.length).toBeGreaterThan(1);
    for (const filter of filters) expect(JSON.stringify(filter)).not.toContain('updated_at');
    expect(titles(rows)).toEqual(unchangedTitles.slice(1, 6));
    expect(rows.every((row) => row.updated_at <= WALK_BEGAN)).toBe(true);
  });

  it('gives the same pages on both paths to the end of the walk', async () => {
    for (const path of [changedSinceWalkInQuery, changedSinceWalkInCode]) {
      const seen: string[] = [];
      let start: CursorRead['start'] = null;
      for (;;) {
        const { rows } = await page(path, { start });
        seen.push(...titles(rows));
        const last = rows[rows.length - 1];
        if (rows.length < 5 || !last) break;
        start = { key: last.title_key, id: last._id.toHexString() };
      }
      expect(seen).toEqual(unchangedTitles);
    }
  });

  it('keeps the condition in the query on the adapter too when the order is by updated_at itself', async () => {
    const { filters } = await page(changedSinceWalkInCode, { segment: { filter: {}, field: 'updated_at', direction: 1 }, start: null });
    expect(filters).toEqual([{ updated_at: { $lte: WALK_BEGAN } }]);
  });

  it('adds no condition on a first page (nothing has changed since the walk began) on either path', async () => {
    for (const path of [changedSinceWalkInQuery, changedSinceWalkInCode]) {
      const { rows, filters } = await page(path, { start: null, changedUpTo: null });
      expect(filters).toEqual([{}]);
      expect(titles(rows)).toEqual(ROWS.slice(0, 5).map((row) => row.title_key));
    }
  });
});
