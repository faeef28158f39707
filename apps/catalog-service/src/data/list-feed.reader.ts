import type { ListEntryDocument, ListRepository } from './list.repository';
import type { FeedResume } from '../domain/feed-position';
import type { ListChangeDocument, ListChangesRepository } from './list-changes.repository';

/** One row of the feed: a list entry (its current state, at its `seq`) or a record of `list_changes`. */
export type FeedRow = { kind: 'entry'; seq: number; item_id: ListEntryDocument['item_id']; entry: ListEntryDocument } | ({ kind: 'record' } & ListChangeDocument);

/** A narrowed read first looks at one sequence number: a bulk write or an import batch may hold 500 rows. */
const FIRST_WINDOW_SEQS = 1;
/** Each retry looks at a window at least this many times as wide. */
const WIDENING = 4;

/**
 * The rows of a user's change feed in feed order (`seq`, then item id): the list entries, which carry the
 * `seq` of their last write, merged with the tombstones (and legacy upsert records) of `list_changes`.
 * Both are read after the same position up to the same `maxSeq`, `limit` of each: the first `limit` of
 * the merge are the feed's.
 */
export class ListFeedReader {
  /**
   * Set at start-up on servers that sort every match instead of walking an index in order (see
   * RangeHints): pages then read windows of sequence numbers, widened until the page is full.
   */
  narrowBySeq = false;

  constructor(
    private readonly lists: ListRepository,
    private readonly changes: ListChangesRepository,
  ) {}

  async page(userId: string, after: FeedResume | null, maxSeq: number, limit: number): Promise<FeedRow[]> {
    if (!this.narrowBySeq) return this.pageUpTo(userId, after, maxSeq, limit);
    // Sequence numbers grow by one per write, but a bulk write or an import batch gives all its rows (up to
    // 500) one, and compaction keeps only each item's latest row: how many rows a window of sequence
    // numbers holds is known only by reading it. Start with one number and widen by what the last window
    // held, until the page is full or the window reaches maxSeq; every read is an index range of about a
    // page, and the last one is the plain read.
    let window = FIRST_WINDOW_SEQS;
    for (;;) {
      const upTo = Math.min(maxSeq, (after?.seq ?? 0) + window);
      const rows = await this.pageUpTo(userId, after, upTo, limit);
      if (rows.length >= limit || upTo >= maxSeq) return rows;
      const perSeq = Math.max(rows.length / window, 1 / WIDENING);
      window = Math.max(window * WIDENING, Math.ceil((2 * (limit - rows.length)) / perSeq));
    }
  }

  private async pageUpTo(userId: string, after: FeedResume | null, maxSeq: number, limit: number): Promise<FeedRow[]> {
    const entries = await this.lists.feedPage(userId, after, maxSeq, limit);
    const records = await this.changes.page(userId, after, maxSeq, limit);
    const rows: FeedRow[] = [
      ...entries.map((entry) => ({ kind: 'entry' as const, seq: entry.seq, item_id: entry.item_id, entry })),
      ...records.map((record) => ({ kind: 'record' as const, ...record })),
    ];
    rows.sort((a, b) => a.seq - b.seq || a.item_id.toHexString().localeCompare(b.item_id.toHexString()) || (a.kind === 'entry' ? -1 : 1));
    // A legacy record folded into its entry's seq while it was still kept: the entry tells it once.
    const distinct = rows.filter((row, i) => {
      const previous = rows[i - 1];
      return !previous || row.seq !== previous.seq || !row.item_id.equals(previous.item_id);
    });
    return distinct.slice(0, limit);
  }
}
