import { DEFAULT_LIMIT, type Page } from '@mt/contracts';
import { errors, type ErrorDetail } from '@mt/errors';
import { nextCursor, resumeWalk, type CursorCodec } from '@mt/pagination';
import { toId, type Id } from '../../domain/ids';
import type { CatalogRepository } from '../../data/catalog.repository';
import { tombstoneExpiry } from '../../domain/feed-retention';
import type { ListChangesRepository } from '../../data/list-changes.repository';
import { TransactionContentionError, type AtomicRunner, type Session } from '../../data/atomic';
import { addDeltas, statsDelta } from '../../domain/list-stats';
import { KeyedQueue } from '../../domain/keyed-queue';
import { pageWindow, toPage } from '../../domain/offset-page';
import { listPositionAfter, readListPosition } from '../../domain/list-cursor';
import type { ListCounts, ListPageReader } from '../../data/list-page.reader';
import { itemsToJoin, toResponse, type ListEntryResponse } from './list-entry.response';
import { datesProblem, utcToday, withStatusDates } from '../../domain/list-dates';
import { historyEvents, withLegacyHistory } from '../../domain/list-history';
import type { LegacyHistoryRepository } from '../../data/legacy-history.repository';
import { ListOwnerDeletedError, type ListOwnersRepository } from '../../data/list-owners.repository';
import { importOutcome, listFieldsOf, type ImportMode, type ImportOutcome } from '../../domain/list-import';
import { DuplicateListEntryError, listedItem, type ListedItem, type ListEntryChange, type ListEntryDocument, type ListRepository } from '../../data/list.repository';
import { type NewListEntryFields } from '../../domain/list-entry';
import type { ListEntryFieldsInput, ListQuery, ListStatus } from '../../domain/list-entry';

export type ListEntryPage = Page<ListEntryResponse> & { next_cursor: string | null };

/** One row of an import, matched to its catalog entry (`created`: one the batch creates). */
export interface ImportedEntry {
  itemId: Id;
  created?: ListedItem;
  fields: NewListEntryFields;
}

/** A catalog entry an import batch was matched to was removed or merged before the batch was written: match it again. */
export class ListedItemGoneError extends Error {}

/** Optimistic PATCH retries before giving up on an entry that keeps changing underneath. */
const PATCH_ATTEMPTS = 5;

const NOT_ON_LIST = 'entry not on your list';

function rejectBadDates(problem: ErrorDetail | undefined): void {
  if (problem) throw errors.validation('finished_at must not be before started_at', [problem]);
}

/** The place of one list write in its user's change feed: its sequence number and time. */
interface ChangeStamp {
  userId: string;
  seq: number;
  at: Date;
  session: Session;
}

/**
 * Personal lists: every operation is scoped to the caller; another user's entry does not exist.
 * Every write runs in one transaction with the user's list-owner document (see ListOwnersRepository), so
 * writes of one user are serialised and none can land after the account's deletion was applied.
 */
export class ListService {
  /**
   * A user's writes would conflict on the owner document anyway: queued per user in this instance, they
   * run one after the other instead of failing and retrying (only writes through other instances conflict).
   */
  private readonly writesByUser = new KeyedQueue();

  constructor(
    private readonly lists: ListRepository,
    private readonly pages: ListPageReader,
    private readonly owners: ListOwnersRepository,
    private readonly catalog: CatalogRepository,
    private readonly changes: ListChangesRepository,
    private readonly legacyHistories: LegacyHistoryRepository,
    private readonly atomic: AtomicRunner,
    private readonly cursors: CursorCodec,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * A write of the user's list, all-or-nothing with its owner document (401 once the account is gone) and
   * with its place in the change feed: the work writes entries with the stamp's `seq` and calls deleted()
   * for removals.
   */
  private async write<T>(userId: string, work: (session: Session, stamp: ChangeStamp) => Promise<T>): Promise<T> {
    try {
      return await this.writesByUser.run(userId, async () => {
        await this.owners.ensure(userId);
        return this.atomic.run(async (session) => {
          const seq = await this.owners.recordWrite(userId, session);
          return work(session, { userId, seq, at: this.now(), session });
        });
      });
    } catch (error) {
      // The identity was signed before the deletion reached the gateway: like a revoked credential.
      if (error instanceof ListOwnerDeletedError) throw errors.unauthorized('the account no longer exists');
      if (error instanceof TransactionContentionError) {
        throw errors.serviceUnavailable('your list is being changed by too many requests at once; try again');
      }
      throw error;
    }
  }

  private deleted(stamp: ChangeStamp, itemIds: readonly Id[]): Promise<void> {
    return this.changes.recordDeletes(stamp.userId, stamp.seq, itemIds, stamp.at, tombstoneExpiry(stamp.at), stamp.session);
  }

  async add(userId: string, input: ListEntryFieldsInput & { item_id: string }): Promise<ListEntryResponse> {
    const now = this.now();
    const status = input.status ?? 'plan_to_watch';
    const dates = withStatusDates({ started_at: input.started_at ?? null, finished_at: input.finished_at ?? null }, status, utcToday(now));
    rejectBadDates(datesProblem(dates));
    const itemId = toId(input.item_id);
    // Unknown items are refused without a transaction; the transaction checks again.
    if (!(await this.catalog.summaries([itemId])).has(input.item_id)) throw errors.notFound('catalog entry not found');
    const score = input.score ?? null;
    const fields = { status, score, progress: input.progress ?? null, notes: input.notes ?? null, ...dates };
    try {
      const { doc, current } = await this.write(userId, async (session, stamp) => {
        // Read again, as a write: an addition racing a moderator's removal or merge of the item either
        // commits first (and is removed or moved with the others) or conflicts, runs again and finds it gone.
        const current = await this.catalog.claimForList(itemId, session);
        if (!current) throw errors.notFound('catalog entry not found');
        const doc = await this.lists.insertNew(userId, listedItem(current), fields, now, stamp.seq, historyEvents(null, fields, now), session);
        await this.owners.addToStats(userId, statsDelta(null, doc), session);
        return { doc, current };
      });
      return toResponse(doc, current);
    } catch (error) {
      if (error instanceof DuplicateListEntryError) throw errors.conflict('this entry is already on your list');
      throw error;
    }
  }

  async get(userId: string, itemId: string): Promise<ListEntryResponse> {
    const doc = await this.lists.find(userId, toId(itemId));
    if (!doc) throw errors.notFound(NOT_ON_LIST);
    return this.withItem(doc);
  }

  async update(userId: string, itemId: string, patch: ListEntryFieldsInput): Promise<ListEntryResponse> {
    const objectId = toId(itemId);
    for (let attempt = 1; attempt <= PATCH_ATTEMPTS; attempt++) {
      // Inside the transaction the revision cannot move; without transactions (standalone) it can: retried.
      const updated = await this.write(userId, async (session, stamp) => {
        const current = await this.lists.find(userId, objectId, session);
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
        const written = await this.lists.updateAtRevision(userId, objectId, current.rev, set, historyEvents(current, { ...current, ...set }, now), session);
        if (written) await this.owners.addToStats(userId, statsDelta(current, written), session);
        return written;
      });
      if (updated) return this.withItem(updated);
    }
    throw errors.conflict('the entry kept changing while it was being updated; try again');
  }

  async remove(userId: string, itemId: string): Promise<{ message: string }> {
    const objectId = toId(itemId);
    await this.write(userId, async (session, stamp) => {
      const removed = await this.lists.delete(userId, objectId, session);
      if (!removed) throw errors.notFound(NOT_ON_LIST);
      await this.owners.addToStats(userId, statsDelta(removed, null), session);
      await this.deleted(stamp, [objectId]);
      await this.legacyHistories.deleteOf(userId, [objectId], session);
    });
    return { message: 'entry removed from your list' };
  }

  /**
   * A page of the list, by offset or by cursor (API.md §9). `total` comes from the counters on the owner
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
      const walk = resumeWalk(this.cursors, query.cursor, bound, this.now().getTime());
      const position = walk.after === null ? null : readListPosition(walk.after, sort);
      if (walk.after !== null && !position) throw errors.validation('invalid cursor', [{ path: 'cursor', message: 'belongs to another query; start again with cursor=start' }]);
      // Pages after the first leave out entries changed since the first was read: they may have moved behind the cursor.
      const changedUpTo = position ? new Date(walk.snapshotAt) : null;
      const before = position?.served ?? 0;
      const rows = await this.pages.cursorPage(userId, query.status, sort, direction, { position, served: before, changedUpTo }, limit + 1, counts);
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      const next = nextCursor(this.cursors, bound, walk, last && listPositionAfter(last, sort, before + page.length), rows.length > limit);
      return { ...(await this.respondPage(page, { page: Math.floor(before / limit) + 1, limit, skip: before }, total)), next_cursor: next };
    }
    const window = pageWindow(query.page, query.limit);
    const rows = window.skip >= total ? [] : await this.pages.offsetPage(userId, query.status, sort, direction, window, counts);
    // A client may switch to cursors after any offset page: the cursor resumes after its last entry.
    const served = window.skip + rows.length;
    const last = rows.at(-1);
    const next = nextCursor(this.cursors, bound, { snapshotAt: this.now().getTime() }, last && listPositionAfter(last, sort, served), served < total);
    return { ...(await this.respondPage(rows, window, total)), next_cursor: next };
  }

  private async respondPage(rows: ListEntryDocument[], window: { page: number; limit: number; skip: number }, total: number): Promise<Page<ListEntryResponse>> {
    const items = await itemsToJoin(this.catalog, rows);
    return toPage(rows.map((row) => toResponse(row, items.get(row.item_id.toHexString()))), window, total);
  }

  /** The user's entries, and those with the status: the owner's counters, a count only for a list older than them. */
  private async counts(userId: string, status: ListStatus | undefined): Promise<ListCounts> {
    const counters = await this.owners.stats(userId);
    if (counters === null) return { entries: 0, matching: 0 };
    if (counters === undefined) {
      const [entries, matching] = await Promise.all([this.lists.count(userId, undefined), status ? this.lists.count(userId, status) : undefined]);
      return { entries, matching: matching ?? entries };
    }
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
    return this.write(userId, async (session, stamp) => {
      // Read first: the history needs the statuses being left.
      const found = await this.lists.findMany(userId, ids, session);
      const updated = found.length ? await this.lists.setStatus(userId, found.map((entry) => entry._id), status, today, now, stamp.seq, session) : 0;
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
      await this.owners.addToStats(userId, addDeltas(found.map((entry) => statsDelta(entry, { ...entry, status, finished_at: finishedToday(entry) }))), session);
      return { updated, not_found: itemIds.filter((id) => !onList.has(id)) };
    });
  }

  async bulkDelete(userId: string, itemIds: string[]): Promise<{ deleted: number; not_found: string[] }> {
    const ids = itemIds.map((id) => toId(id));
    return this.write(userId, async (session, stamp) => {
      const found = await this.lists.findMany(userId, ids, session);
      const onList = new Set(found.map((entry) => entry.item_id.toHexString()));
      const deleted = found.length ? await this.lists.deleteMany(userId, found.map((entry) => entry._id), session) : 0;
      await this.deleted(stamp, found.map((entry) => entry.item_id));
      await this.legacyHistories.deleteOf(userId, found.map((entry) => entry.item_id), session);
      await this.owners.addToStats(userId, addDeltas(found.map((entry) => statsDelta(entry, null))), session);
      return { deleted, not_found: itemIds.filter((id) => !onList.has(id)) };
    });
  }

  /** The entry's status, score and progress changes, newest first (404 when it is not on the list). */
  async history(userId: string, itemId: string): Promise<Array<{ at: string; field: string; from: string | number | null; to: string | number | null }>> {
    const objectId = toId(itemId);
    const entry = await this.lists.historyOf(userId, objectId);
    if (!entry) throw errors.notFound(NOT_ON_LIST);
    const events = withLegacyHistory(entry.history ?? [], await this.legacyHistories.events(userId, objectId), entry.created_at);
    return events.map((event) => ({ at: event.at.toISOString(), field: event.field, from: event.from, to: event.to }));
  }

  /**
   * For the import job: one batch of matched rows in ONE transaction with the user's owner document, so the
   * batch is applied whole or not at all, and never after the account's deletion (401). `prepare` runs first
   * in the transaction (it creates the catalog entries rows need); `record` runs last with each row's outcome
   * (the job's counts and checkpoint, committed with the rows). Applied rows are recorded like any list
   * write: one `seq` for the batch in the change feed, history, statistics. Rows are applied in order, so a
   * later row of the batch sees what an earlier one did to the same entry. ListedItemGoneError when a
   * catalog entry a row was matched to was removed or merged since: match the batch again.
   */
  async importEntries(
    userId: string,
    mode: ImportMode,
    rows: readonly ImportedEntry[],
    prepare: (session: Session) => Promise<void>,
    record: (session: Session, outcomes: ImportOutcome[]) => Promise<void>,
  ): Promise<ImportOutcome[]> {
    await this.lists.ensureGuards(rows.filter((row) => !row.created).map((row) => row.itemId), { userId });
    return this.write(userId, async (session, stamp) => {
      await prepare(session);
      const ids = [...new Map(rows.map((row) => [row.itemId.toHexString(), row.itemId])).values()];
      const before = new Map((await this.lists.findEntriesIn(userId, ids, session)).map((entry) => [entry.item_id.toHexString(), entry]));
      const after = new Map<string, { itemId: Id; fields: NewListEntryFields }>();
      const outcomes = rows.map((row) => {
        const key = row.itemId.toHexString();
        const stored = before.get(key);
        const current = after.get(key)?.fields ?? (stored && listFieldsOf(stored));
        const outcome = importOutcome(current, row.fields, mode);
        if (outcome === 'added' || outcome === 'updated') after.set(key, { itemId: row.itemId, fields: listFieldsOf(row.fields) });
        return outcome;
      });
      const added = [...after.entries()].filter(([key]) => !before.has(key));
      const items = await this.itemsToAdd(userId, rows, added.map(([, { itemId }]) => itemId), session);
      const inserts = added.map(([key, { fields }]) => {
        const item = items.get(key);
        if (!item) throw new ListedItemGoneError(`catalog entry ${key} was removed or merged after the batch was matched`);
        return { item, fields, events: historyEvents(null, fields, stamp.at) };
      });
      const updates = [...after.entries()]
        .filter(([key]) => before.has(key))
        .map(([key, { itemId, fields }]) => {
          const old = before.get(key)!;
          const change: ListEntryChange = { ...fields, updated_at: stamp.at, seq: stamp.seq };
          if (old.status === 'completed' && fields.status === 'watching') change.repeat_count = (old.repeat_count ?? 0) + 1;
          return { itemId, change, old, events: historyEvents(old, { ...old, ...change }, stamp.at) };
        });
      await this.lists.writeImported(userId, inserts, updates, stamp.at, stamp.seq, session);
      const deltas = [...inserts.map(({ fields }) => statsDelta(null, fields)), ...updates.map(({ change, old }) => statsDelta(old, { ...old, ...change }))];
      if (deltas.length) await this.owners.addToStats(userId, addDeltas(deltas), session);
      await record(session, outcomes);
      return outcomes;
    });
  }

  /**
   * The catalog entries an import batch adds to the list, as the entries keep them (absent: gone since they
   * were matched). Those the batch creates are its own until it commits; the others are read after their
   * guards are written (ListRepository.touchGuards), so a removal, merge or edit of one racing the batch
   * conflicts with it, and the copy of title and year is the current one. Entries already on the list need
   * no guard: a removal, merge or edit writes them, and conflicts there.
   */
  private async itemsToAdd(userId: string, rows: readonly ImportedEntry[], ids: readonly Id[], session: Session): Promise<Map<string, ListedItem>> {
    const items = new Map(rows.flatMap((row) => (row.created ? [[row.itemId.toHexString(), row.created] as const] : [])));
    const guarded = ids.filter((id) => !items.has(id.toHexString()));
    await this.lists.touchGuards(guarded, { userId }, session);
    for (const [key, row] of await this.catalog.summaries(guarded, session)) items.set(key, listedItem(row));
    return items;
  }

  /**
   * A dry run's view of the same batch: the outcome of each row without writing. `overlay` carries what the
   * dry run's earlier rows would have written (by item id; ids of catalog entries it would create are not
   * in the store), and is updated as rows are judged.
   */
  async previewImport(userId: string, rows: ImportedEntry[], mode: ImportMode, overlay: Map<string, NewListEntryFields>): Promise<ImportOutcome[]> {
    const unknown = rows.map((row) => row.itemId).filter((id) => !overlay.has(id.toHexString()));
    const stored = new Map((await this.lists.findEntries(userId, unknown)).map((entry) => [entry.item_id.toHexString(), listFieldsOf(entry)]));
    return rows.map((row) => {
      const key = row.itemId.toHexString();
      const outcome = importOutcome(overlay.get(key) ?? stored.get(key), row.fields, mode);
      if (outcome === 'added' || outcome === 'updated') overlay.set(key, listFieldsOf(row.fields));
      return outcome;
    });
  }

  /** For a moderation whose transaction found the guards of its entry missing (withItemGuards): creates them. */
  ensureGuard(itemId: Id): Promise<void> {
    return this.lists.ensureGuards([itemId], 'all');
  }

  /**
   * For the catalog's moderation, inside its transaction: removes `itemId` from every list that has it,
   * each removal a change in its owner's feed (numbered by that owner's sequence, so it is ordered with the
   * owner's own writes). Returns how many entries were removed. A fixed number of statements whatever the
   * number of lists (bulk writes): a moderation of a popular entry fits in one transaction. The entry's
   * guards are written (withItemGuards), so an import batch adding it meanwhile runs again and finds it gone.
   */
  async removeEntriesOfItem(itemId: Id, session: Session): Promise<number> {
    await this.lists.touchGuards([itemId], 'all', session);
    const at = this.now();
    const entries = await this.lists.entriesOfItem(itemId, session);
    if (!entries.length) return 0;
    const seqs = await this.owners.recordForeignWrites(entries.map((entry) => entry.user_id), session);
    const removed = await this.lists.deleteByIds(entries.map((entry) => entry._id), session);
    await this.owners.addToStatsOfMany(entries.map((entry) => ({ userId: entry.user_id, delta: statsDelta(entry, null) })), session);
    await this.changes.recordDeletesOfMany(entries.map((entry) => ({ userId: entry.user_id, seq: seqs.get(entry.user_id) ?? 1, itemId })), at, tombstoneExpiry(at), session);
    await this.legacyHistories.deletePairs(entries.map((entry) => ({ userId: entry.user_id, itemId })), session);
    return removed;
  }

  /**
   * For the catalog's merge, inside its transaction: every list entry of `from` now refers to `into`
   * (keeping its status, score, dates, notes and history); a user who has both keeps the one updated last
   * (API.md §13; `into`'s on a tie) and loses the other with its history. Each list's feed records the
   * removal of `from` and, when the kept entry is the moved one, the entry of `into` (at the owner's `seq`).
   * Bulk statements and the guard of `from`, as removeEntriesOfItem.
   */
  async moveEntries(from: Id, into: ListedItem, session: Session): Promise<{ moved: number; removed: number }> {
    await this.lists.touchGuards([from], 'all', session);
    const at = this.now();
    const fromEntries = await this.lists.entriesOfItem(from, session);
    if (!fromEntries.length) return { moved: 0, removed: 0 };
    const users = fromEntries.map((entry) => entry.user_id);
    const seqs = await this.owners.recordForeignWrites(users, session);
    const intoOf = new Map((await this.lists.entriesOfItem(into.id, session, users)).map((entry) => [entry.user_id, entry]));
    const losers: ListEntryDocument[] = [];
    const movers: string[] = [];
    for (const entry of fromEntries) {
      const other = intoOf.get(entry.user_id);
      if (other && !(entry.updated_at > other.updated_at)) {
        losers.push(entry);
        continue;
      }
      if (other) losers.push(other);
      movers.push(entry.user_id);
    }
    const removed = await this.lists.deleteByIds(losers.map((entry) => entry._id), session);
    await this.legacyHistories.deletePairs(losers.map((entry) => ({ userId: entry.user_id, itemId: entry.item_id })), session);
    await this.owners.addToStatsOfMany(losers.map((entry) => ({ userId: entry.user_id, delta: statsDelta(entry, null) })), session);
    const seq = (userId: string) => seqs.get(userId) ?? 1;
    const moved = await this.lists.moveItem(from, into, at, new Map(movers.map((userId) => [userId, seq(userId)])), session);
    await this.legacyHistories.moveItem(from, into.id, session);
    await this.changes.recordDeletesOfMany(users.map((userId) => ({ userId, seq: seq(userId), itemId: from })), at, tombstoneExpiry(at), session);
    return { moved, removed };
  }

  private async withItem(doc: ListEntryDocument): Promise<ListEntryResponse> {
    const items = await itemsToJoin(this.catalog, [doc]);
    return toResponse(doc, items.get(doc.item_id.toHexString()));
  }
}
