import { DEFAULT_LIMIT, type Page } from '@mt/contracts';
import { errors, type ErrorDetail } from '@mt/errors';
import { nextCursor, resumeWalk, type CursorCodec } from '@mt/pagination';
import { toId, type Id } from '../../domain/ids';
import { addDeltas, statsDelta } from '../../domain/list-stats';
import { pageWindow, toPage } from '../../domain/offset-page';
import { listPositionAfter, readListPosition } from '../../domain/list-cursor';
import type { ListEntryResponse, ListEntryViews } from './list-entry.response';
import { datesProblem, utcToday, withStatusDates } from '../../domain/list-dates';
import { historyEvents } from '../../domain/list-history';
import type { ListEntryFieldsInput, ListQuery, ListStatus } from '../../domain/list-entry';
import type { ListWrites } from './list-writes';
import type { CatalogStore } from '../../domain/ports/catalog-store.port';
import type { ListCounts, ListPages } from '../../domain/ports/list-pages.port';
import type { ListOwnersStore } from '../../domain/ports/list-owners-store.port';
import type { ListStore } from '../../domain/ports/list-store.port';
import type { PlaysStore } from '../../domain/ports/plays-store.port';
import { DuplicateListEntryError, listedItem, type ListEntryChange, type ListEntryDocument } from '../../domain/records/list-entry.record';

export type ListEntryPage = Page<ListEntryResponse> & { next_cursor: string | null };

/** Optimistic PATCH retries before giving up on an entry that keeps changing underneath. */
const PATCH_ATTEMPTS = 5;

const NOT_ON_LIST = 'entry not on your list';

function rejectBadDates(problem: ErrorDetail | undefined): void {
  if (problem) throw errors.validation('finished_at must not be before started_at', [problem]);
}

export interface ListServiceDeps {
  lists: ListStore;
  pages: ListPages;
  owners: ListOwnersStore;
  catalog: CatalogStore;
  /** Entries as answered, with their item's title, year and poster. */
  views: ListEntryViews;
  writes: ListWrites;
  /** An entry leaving the list takes its plays (its `delete` in the feed stands for them). */
  plays: Pick<PlaysStore, 'deleteOfItems'>;
  /** Movies: progress in minutes above the movie's known `runtime_minutes` is refused. */
  progressCap?: (itemId: Id) => Promise<number | null>;
  cursors: CursorCodec;
  now?: () => Date;
}

/**
 * Personal lists, as their owner uses them: every operation is scoped to the caller; another user's entry
 * does not exist. Writes go through ListWrites (one transaction with the owner document, a feed position).
 */
export class ListService {
  private readonly now: () => Date;

  constructor(private readonly deps: ListServiceDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  async add(userId: string, input: ListEntryFieldsInput & { item_id: string }): Promise<ListEntryResponse> {
    const now = this.now();
    const status = input.status ?? 'plan_to_watch';
    const dates = withStatusDates({ started_at: input.started_at ?? null, finished_at: input.finished_at ?? null }, status, utcToday(now));
    rejectBadDates(datesProblem(dates));
    const itemId = toId(input.item_id);
    await this.refuseProgressBeyondLength(itemId, input.progress);
    // Unknown items are refused without a transaction; the transaction checks again.
    if (!(await this.deps.catalog.summaries([itemId])).has(input.item_id)) throw errors.notFound('catalog entry not found');
    const score = input.score ?? null;
    const fields = { status, score, progress: input.progress ?? null, notes: input.notes ?? null, ...dates };
    try {
      const doc = await this.deps.writes.run(userId, async (session, stamp) => {
        // Read again, as a write: an addition racing a moderator's removal or merge of the item either
        // commits first (and is removed or moved with the others) or conflicts, runs again and finds it gone.
        const current = await this.deps.catalog.claimForList(itemId, session);
        if (!current) throw errors.notFound('catalog entry not found');
        const doc = await this.deps.lists.insertNew(userId, listedItem(current), fields, now, stamp.seq, historyEvents(null, fields, now), session);
        await this.deps.owners.addToStats(userId, statsDelta(null, doc), session);
        return doc;
      });
      return this.deps.views.one(doc);
    } catch (error) {
      if (error instanceof DuplicateListEntryError) throw errors.conflict('this entry is already on your list');
      throw error;
    }
  }

  async get(userId: string, itemId: string): Promise<ListEntryResponse> {
    const doc = await this.deps.lists.find(userId, toId(itemId));
    if (!doc) throw errors.notFound(NOT_ON_LIST);
    return this.withItem(doc);
  }

  async update(userId: string, itemId: string, patch: ListEntryFieldsInput): Promise<ListEntryResponse> {
    const objectId = toId(itemId);
    await this.refuseProgressBeyondLength(objectId, patch.progress);
    for (let attempt = 1; attempt <= PATCH_ATTEMPTS; attempt++) {
      // Inside the transaction the revision cannot move; without transactions (standalone) it can: retried.
      const updated = await this.deps.writes.run(userId, async (session, stamp) => {
        const current = await this.deps.lists.find(userId, objectId, session);
        if (!current) throw errors.notFound(NOT_ON_LIST);
        const now = this.now();
        const dates = withStatusDates(
          {
            started_at: patch.started_at !== undefined ? patch.started_at : current.started_at,
            finished_at: patch.finished_at !== undefined ? patch.finished_at : current.finished_at,
          },
          patch.status,
          utcToday(now),
        );
        rejectBadDates(datesProblem(dates));
        const set: ListEntryChange = { ...dates, updated_at: now, seq: stamp.seq };
        if (patch.status !== undefined) set.status = patch.status;
        if (current.status === 'completed' && patch.status === 'watching') set.repeat_count = (current.repeat_count ?? 0) + 1;
        if (patch.score !== undefined) set.score = patch.score;
        if (patch.progress !== undefined) set.progress = patch.progress;
        if (patch.notes !== undefined) set.notes = patch.notes;
        const written = await this.deps.lists.updateAtRevision(userId, objectId, current.rev, set, historyEvents(current, { ...current, ...set }, now), session);
        if (written) await this.deps.owners.addToStats(userId, statsDelta(current, written), session);
        return written;
      });
      if (updated) return this.withItem(updated);
    }
    throw errors.conflict('the entry kept changing while it was being updated; try again');
  }

  async remove(userId: string, itemId: string): Promise<{ message: string }> {
    const objectId = toId(itemId);
    await this.deps.writes.run(userId, async (session, stamp) => {
      const removed = await this.deps.lists.delete(userId, objectId, session);
      if (!removed) throw errors.notFound(NOT_ON_LIST);
      await this.deps.owners.addToStats(userId, statsDelta(removed, null), session);
      await this.deps.writes.deleted(stamp, [objectId]);
      await this.deps.plays.deleteOfItems(userId, [objectId], session);
    });
    return { message: 'entry removed from your list' };
  }

  /**
   * A page of the list, by offset or by cursor. `total` comes from the counters on the owner
   * document (no count over the list); a cursor is bound to the owner, the filter, sort and order.
   */
  async page(userId: string, query: ListQuery): Promise<ListEntryPage> {
    const sort = query.sort ?? 'updated_at';
    const order = query.order ?? (sort === 'title' ? 'asc' : 'desc');
    const direction = order === 'asc' ? 1 : -1;
    const bound = { owner: userId, status: query.status, sort, order };
    const counts = await this.counts(userId, query.status);
    const total = counts.matching;
    if (query.cursor !== undefined) {
      const limit = query.limit ?? DEFAULT_LIMIT;
      const walk = resumeWalk(this.deps.cursors, query.cursor, bound, this.now().getTime());
      const position = walk.after === null ? null : readListPosition(walk.after, sort);
      if (walk.after !== null && !position) throw errors.validation('invalid cursor', [{ path: 'cursor', message: 'belongs to another query; start again with cursor=start' }]);
      // Pages after the first leave out entries changed since the first was read: they may have moved behind the cursor.
      const changedUpTo = position ? new Date(walk.snapshotAt) : null;
      const before = position?.served ?? 0;
      const rows = await this.deps.pages.cursorPage(userId, query.status, sort, direction, { position, served: before, changedUpTo }, limit + 1, counts);
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      const next = nextCursor(this.deps.cursors, bound, walk, last && listPositionAfter(last, sort, before + page.length), rows.length > limit);
      return { ...(await this.respondPage(page, { page: Math.floor(before / limit) + 1, limit, skip: before }, total)), next_cursor: next };
    }
    const window = pageWindow(query.page, query.limit);
    const rows = window.skip >= total ? [] : await this.deps.pages.offsetPage(userId, query.status, sort, direction, window, counts);
    // A client may switch to cursors after any offset page: the cursor resumes after its last entry.
    const served = window.skip + rows.length;
    const last = rows.at(-1);
    const next = nextCursor(this.deps.cursors, bound, { snapshotAt: this.now().getTime() }, last && listPositionAfter(last, sort, served), served < total);
    return { ...(await this.respondPage(rows, window, total)), next_cursor: next };
  }

  private async respondPage(rows: ListEntryDocument[], window: { page: number; limit: number; skip: number }, total: number): Promise<Page<ListEntryResponse>> {
    return toPage(this.deps.views.many(rows), window, total);
  }

  /** The user's entries, and those with the status: the owner's counters (none without an owner document). */
  private async counts(userId: string, status: ListStatus | undefined): Promise<ListCounts> {
    const counters = (await this.deps.owners.stats(userId, status ? ['total', `status.${status}`] : ['total'])) ?? {};
    const entries = counters['total'] ?? 0;
    return { entries, matching: status ? (counters[`status.${status}`] ?? 0) : entries };
  }

  /**
   * All-or-nothing, in one transaction. The listed entries are read (what the history, the counters and
   * the date rule need), then moved in one statement by document id (with the date rule applied). Ids not
   * on the list are reported; an entry the move would make inconsistent is a 400: the transaction is
   * aborted and nothing changes.
   */
  async bulkStatus(userId: string, itemIds: string[], status: ListStatus): Promise<{ updated: number; not_found: string[] }> {
    const ids = itemIds.map((id) => toId(id));
    const now = this.now();
    const today = utcToday(now);
    return this.deps.writes.run(userId, async (session, stamp) => {
      // Read first: the history needs the statuses being left.
      const found = await this.deps.lists.findMany(userId, ids, session);
      const updated = found.length ? await this.deps.lists.setStatus(userId, found.map((entry) => entry._id), status, today, now, stamp.seq, session) : 0;
      const onList = new Map(found.map((entry) => [entry.item_id.toHexString(), entry]));
      const problems: ErrorDetail[] = [];
      itemIds.forEach((id, index) => {
        const entry = onList.get(id);
        // Read before the move: each entry is checked as if moved (the date rule is the same as the statement's).
        const problem = entry && datesProblem(withStatusDates(entry, status, today), `item_ids.${index}`);
        if (problem) problems.push({ path: problem.path, message: `${id}: ${problem.message} once ${status}` });
      });
      if (problems.length) throw errors.validation('moving these entries would put finished_at before started_at', problems);
      const finishedToday = (entry: (typeof found)[number]) => (status === 'completed' ? (entry.finished_at ?? today) : entry.finished_at);
      await this.deps.owners.addToStats(userId, addDeltas(found.map((entry) => statsDelta(entry, { ...entry, status, finished_at: finishedToday(entry) }))), session);
      return { updated, not_found: itemIds.filter((id) => !onList.has(id)) };
    });
  }

  async bulkDelete(userId: string, itemIds: string[]): Promise<{ deleted: number; not_found: string[] }> {
    const ids = itemIds.map((id) => toId(id));
    return this.deps.writes.run(userId, async (session, stamp) => {
      const found = await this.deps.lists.findMany(userId, ids, session);
      const onList = new Set(found.map((entry) => entry.item_id.toHexString()));
      const deleted = found.length ? await this.deps.lists.deleteMany(userId, found.map((entry) => entry._id), session) : 0;
      await this.deps.writes.deleted(stamp, found.map((entry) => entry.item_id));
      await this.deps.plays.deleteOfItems(userId, found.map((entry) => entry.item_id), session);
      await this.deps.owners.addToStats(userId, addDeltas(found.map((entry) => statsDelta(entry, null))), session);
      return { deleted, not_found: itemIds.filter((id) => !onList.has(id)) };
    });
  }

  /** The entry's status, score and progress changes, newest first (404 when it is not on the list). */
  async history(userId: string, itemId: string): Promise<Array<{ at: string; field: string; from: string | number | null; to: string | number | null }>> {
    const objectId = toId(itemId);
    const entry = await this.deps.lists.historyOf(userId, objectId);
    if (!entry) throw errors.notFound(NOT_ON_LIST);
    return (entry.history ?? []).map((event) => ({ at: event.at.toISOString(), field: event.field, from: event.from, to: event.to }));
  }

  private async refuseProgressBeyondLength(itemId: Id, progress: number | null | undefined): Promise<void> {
    if (progress === undefined || progress === null || !this.deps.progressCap) return;
    const cap = await this.deps.progressCap(itemId);
    if (cap !== null && progress > cap) throw errors.validation('progress is beyond the length of the work', [{ path: 'progress', message: `must be at most ${cap} (its runtime_minutes)` }]);
  }

  private withItem(doc: ListEntryDocument): ListEntryResponse {
    return this.deps.views.one(doc);
  }
}
