import { errors } from '@mt/errors';
import type { ListEntryResponse, ListEntryViews } from '../list/list-entry.response';
import { decodeFeedPosition, encodeFeedPosition, type FeedPosition } from '../../domain/feed-position';
import { positionRetained } from '../../domain/feed-retention';
import { DEFAULT_FEED_LIMIT, type ChangesQuery } from './list-changes.schemas';
import type { ListOwnersStore } from '../../domain/ports/list-owners-store.port';
import { wholeGroups, type ListFeed } from '../../domain/ports/list-feed.port';
import { toPlayResponse, type PlayResponse } from '../plays/play.response';

export type ListChange =
  | { type: 'upsert'; item_id: string; entry: ListEntryResponse; changed_at: string }
  | { type: 'delete'; item_id: string; changed_at: string }
  | { type: 'play'; item_id: string; play: PlayResponse; changed_at: string }
  | { type: 'play_delete'; item_id: string; play_id: string; changed_at: string };

export interface ChangesPage {
  changes: ListChange[];
  next_since: string;
  has_more: boolean;
}

/**
 * The change feed, read without a transaction or a lock: writers are never held up.
 * A page only shows changes numbered up to the list's committed sequence number read first: every one of
 * them is committed, so no later page can reveal one numbered before a position already handed out (a
 * plain query could see a later write and miss an earlier one still committing).
 */
export class ListChangesService {
  constructor(
    private readonly feed: ListFeed,
    private readonly owners: ListOwnersStore,
    private readonly views: ListEntryViews,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async page(userId: string, query: ChangesQuery): Promise<ChangesPage> {
    const now = this.now();
    const since = query.since === undefined ? null : this.position(query.since, now);
    const limit = query.limit ?? DEFAULT_FEED_LIMIT;
    const committed = await this.owners.committedSeq(userId);
    const after = since ? { seq: since.seq, itemId: since.itemId } : null;
    const rows = await this.feed.page(userId, after, committed, limit + 1);
    // A page never ends inside one write's rows of one item (its position could not say where).
    const shown = wholeGroups(rows, limit);
    const hasMore = rows.length > shown.length;

    const docs = shown.flatMap((row) => (row.kind === 'entry' ? [row.entry] : []));
    const shownEntries = new Map(this.views.many(docs).map((entry) => [entry.item_id, entry]));
    const changes = shown.map((row): ListChange => {
      const itemId = row.item_id.toHexString();
      if (row.kind === 'play') return { type: 'play', item_id: itemId, play: toPlayResponse(row.play, () => row.episodePresent), changed_at: row.play.created_at.toISOString() };
      if (row.kind === 'play_delete') return { type: 'play_delete', item_id: itemId, play_id: row.deletion.play_id.toHexString(), changed_at: row.deletion.changed_at.toISOString() };
      if (row.kind === 'entry') return { type: 'upsert', item_id: itemId, entry: shownEntries.get(itemId) as ListEntryResponse, changed_at: row.entry.updated_at.toISOString() };
      return { type: 'delete', item_id: itemId, changed_at: row.changed_at.toISOString() };
    });

    const last = shown.at(-1);
    // A client in sync as of now needs every tombstone written from now on; one still catching up needs
    // those written since it started catching up (an entry it read may have been deleted since).
    const next: FeedPosition =
      hasMore && last
        ? { seq: last.seq, itemId: last.item_id, at: since?.at ?? now }
        : { seq: Math.max(committed, since?.seq ?? 0), itemId: null, at: now };
    return { changes, next_since: encodeFeedPosition(next), has_more: hasMore };
  }

  private position(since: string, now: Date): FeedPosition {
    const position = decodeFeedPosition(since);
    if (position === 'retired') throw errors.cursorExpired('this position was issued by an earlier version of the change feed; re-read the list');
    if (!position) throw errors.validation('since is not a position of this feed', [{ path: 'since', message: 'use the next_since of a previous answer' }]);
    if (!positionRetained(position.at, now)) throw errors.cursorExpired();
    return position;
  }
}
