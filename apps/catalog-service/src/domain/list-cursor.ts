import { isObjectIdHex } from '@mt/validation';
import type { CursorPosition } from '@mt/pagination';
import type { ListSort } from './list-entry';

/** The sort key of an entry as a cursor stores it (JSON: dates as epoch ms; score as [score_missing, score]). */
export type ListSortKey = string | number | [number, number | null];

/** Where a cursor page of the list resumes: after the entry with this key and item id; `served` entries came before. */
export interface ListPosition {
  key: ListSortKey;
  itemId: string;
  served: number;
}

/** What a cursor keeps of a list entry (the stored entry has these fields). */
export interface ListSortedEntry {
  item_id: { toHexString(): string };
  item_title_key: string;
  score: number | null;
  score_missing: 0 | 1;
  created_at: Date;
  updated_at: Date;
}

function sortKeyOf(doc: ListSortedEntry, sort: ListSort): ListSortKey {
  switch (sort) {
    case 'title':
      return doc.item_title_key;
    case 'score':
      return [doc.score_missing, doc.score];
    case 'created_at':
      return doc.created_at.getTime();
    default:
      return doc.updated_at.getTime();
  }
}

export function listPositionAfter(doc: ListSortedEntry, sort: ListSort, served: number): CursorPosition {
  return { k: sortKeyOf(doc, sort), i: doc.item_id.toHexString(), n: served };
}

/** The position of a decoded (HMAC-checked, so ours) cursor; null when its shape does not fit the sort. */
export function readListPosition(after: CursorPosition, sort: ListSort): ListPosition | null {
  if (after === null || typeof after !== 'object' || Array.isArray(after)) return null;
  const { k, i, n } = after as Record<string, CursorPosition>;
  if (typeof i !== 'string' || !isObjectIdHex(i) || typeof n !== 'number' || !Number.isInteger(n) || n < 0) return null;
  const fits =
    sort === 'title'
      ? typeof k === 'string'
      : sort === 'score'
        ? Array.isArray(k) && k.length === 2 && (k[0] === 0 || k[0] === 1) && (k[1] === null || typeof k[1] === 'number')
        : typeof k === 'number';
  return fits ? { key: k as ListSortKey, itemId: i, served: n } : null;
}
