import { DEFAULT_LIMIT, type Page } from '@mt/contracts';
import { errors } from '@mt/errors';
import { nextCursor, resumeWalk, type CursorCodec } from '@mt/pagination';
import { KeyedMutex } from '@mt/stores';
import { toId, type Id } from '../../domain/ids';
import { categoryBasePath, type CategoryDefinition } from '../../domain/categories';
import { externalKey, PROGRESS_LENGTH_FIELDS, titleKey } from '@mt/domain';
import { toPage } from '../../domain/offset-page';
import type { CatalogListQuery, EntryFieldsInput } from '../../domain/catalog-query';
import type { ListStore } from '../../domain/ports/list-store.port';
import { withItemGuards, type ItemGuardsStore } from '../../domain/ports/item-guards.port';
import { listedItem } from '../../domain/records/list-entry.record';
import type { EntryRedirectsStore } from '../../domain/ports/entry-redirects-store.port';
import { TransactionContentionError, type AtomicRunner } from '../../domain/ports/atomic.port';
import { DuplicateEntryError, DuplicateExternalIdError, type EntryDocument, type EntryListingRow, type EntryResponseSource } from '../../domain/records/catalog-entry.record';
import type { CatalogStore } from '../../domain/ports/catalog-store.port';
import type { ImageSources } from '@mt/providers';
import { entryPatchChange, newEntryDocument, patchNeedsCurrent, toEntryResponse } from '../../domain/catalog-entry';
import type { CatalogListing } from '../../domain/ports/catalog-listing.port';
import { positionAfter, readPosition, planListing, windowPerSegment, type ListingPlan } from '../../domain/catalog-listing';

export type EntryResponse = Record<string, unknown>;
/** The page object with `next_cursor` (also on offset pages). */
export type EntryPage = Page<EntryResponse> & { next_cursor: string | null };

export interface CatalogServiceDeps {
  category: CategoryDefinition;
  entries: CatalogStore;
  listing: CatalogListing;
  lists: ListStore;
  guards: ItemGuardsStore;
  redirects: EntryRedirectsStore;
  atomic: AtomicRunner;
  cursors: CursorCodec;
  now?: () => Date;
  /** The enabled providers' image bases: an entry's `poster` is its `poster_url` under one of them. */
  images?: ImageSources;
}

/** The shared catalog of one category: create, read, change (creator only) and search entries. */
export class CatalogService {
  private readonly creating = new KeyedMutex();

  private readonly now: () => Date;

  constructor(private readonly deps: CatalogServiceDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  async create(input: EntryFieldsInput & { title: string }, userId: string): Promise<EntryResponse> {
    const doc = newEntryDocument(this.deps.category, input, userId, this.now());
    // Creations of one title and year take turns in this process: racing inserts of one unique key make
    // the store wait on, or deadlock with, each other. Whoever comes after the first finds it and gets a
    // 409 without a transaction.
    // External ids too (useAll takes the locks in sorted order: two creations never wait on each other in a cycle).
    const locks = [`title:${JSON.stringify([doc.title_key, doc.year])}`, ...(doc.external_keys ?? []).map(externalIdLock)];
    return this.creating.useAll(locks, async () => {
      await this.refuseIfTaken(doc);
      try {
        // The unique indexes still decide duplicates (other instances); the count moves with the insert.
        await this.deps.atomic.run((session) => this.deps.entries.insert(doc, session));
      } catch (error) {
        if (error instanceof DuplicateEntryError) throw await this.duplicateConflict(doc.title_key, doc.year);
        if (error instanceof DuplicateExternalIdError) throw await this.externalIdConflict(doc.external_keys ?? []);
        // Out of conflict retries against creations on other instances: if one of them now holds the title
        // or an id, that is this creation's answer (409), as it would have been a moment later.
        if (error instanceof TransactionContentionError) await this.refuseIfTaken(doc);
        throw error;
      }
      return this.respond(doc);
    });
  }

  async get(id: string): Promise<EntryResponse> {
    const doc = await this.deps.entries.findById(toId(id));
    if (!doc) throw errors.notFound(`${this.deps.category.id} entry not found`);
    return this.respond(doc);
  }

  /** GET of one id: the entry, or where a merged id leads now (301); 404 for neither. */
  async locate(id: string): Promise<{ entry: EntryResponse } | { location: string }> {
    const objectId = toId(id);
    const doc = await this.deps.entries.findById(objectId);
    if (doc) return { entry: this.respond(doc) };
    const survivor = await this.deps.redirects.target(objectId);
    if (!survivor) throw errors.notFound(`${this.deps.category.id} entry not found`);
    return { location: `${categoryBasePath(this.deps.category)}/${survivor.toHexString()}` };
  }

  /** `moderator`: the caller holds `catalog:moderate` and may change any entry; else only its own. */
  async update(id: string, patch: EntryFieldsInput, userId: string, moderator = false): Promise<EntryResponse> {
    const objectId = toId(id);
    const needsCurrent = patchNeedsCurrent(this.deps.category, patch);
    // List entries keep the title, the year, a book's pages and the poster: a change of any of them is copied to them.
    const retitles = patch.title !== undefined || patch.year !== undefined || patch.poster_url !== undefined || patch[PROGRESS_LENGTH_FIELDS.pages] !== undefined;
    // External ids are recomputed from the entry as read; a concurrent change of them makes the update miss: read again.
    for (let attempt = 1; ; attempt++) {
      const current = needsCurrent ? await this.deps.entries.findById(objectId) : null;
      if (needsCurrent && !current) throw errors.notFound(`${this.deps.category.id} entry not found`);
      const change = entryPatchChange(this.deps.category, patch, this.now(), current);
      const keys = (change.set['external_keys'] as string[] | undefined) ?? [];
      // Patches claiming one external id take turns in this process, like creations (above): the first
      // claims it, the others meet the unique index at once instead of waiting on each other in the store.
      const claimed = keys.filter((key) => !current?.external_keys?.includes(key)).map(externalIdLock);
      let updated: EntryDocument | null;
      try {
        updated = await this.creating.useAll(claimed, () =>
          withItemGuards(
            () =>
              this.deps.atomic.run(async (session) => {
                const doc = await this.deps.entries.updateIfCreatedBy(objectId, moderator ? null : userId, change, session);
                // List entries keep the item's title (and its sort key), year, pages and poster: changed in the same transaction.
                if (doc && retitles) {
                  await this.deps.guards.touchGuards([objectId], 'all', session);
                  await this.deps.lists.copyItemIntoEntries(listedItem(doc), session);
                }
                return doc;
              }),
            () => this.deps.guards.ensureGuards([objectId], 'all'),
          ),
        );
      } catch (error) {
        if (error instanceof DuplicateExternalIdError) throw await this.externalIdConflict(keys, objectId);
        // Racing claimants on other instances can use up each other's conflict retries; once one of
        // them holds the id, the answer for the rest is the 409 it would have been, not a 503.
        if (error instanceof TransactionContentionError && claimed.length) {
          const holder = await this.deps.entries.findExternalKeyHolder(keys, objectId);
          if (holder) throw externalIdTaken(holder);
        }
        if (!(error instanceof DuplicateEntryError)) throw error;
        const existing = await this.deps.entries.findById(objectId);
        const key = patch.title !== undefined ? titleKey(patch.title) : (existing?.title_key ?? '');
        const year = patch.year !== undefined ? patch.year : (existing?.year ?? null);
        throw await this.duplicateConflict(key, year, objectId);
      }
      if (updated) return this.respond(updated);
      const exists = await this.deps.entries.findById(objectId);
      if (!exists) throw errors.notFound(`${this.deps.category.id} entry not found`);
      if (!moderator && exists.created_by !== userId) throw errors.forbidden('only the user who created this entry (or a moderator) may change it');
      if (attempt >= 10) throw errors.conflict('the entry kept changing while this change was applied; try again');
    }
  }

  async list(query: CatalogListQuery): Promise<EntryPage> {
    if (query.external_id) return this.lookup(query, query.external_id);
    const plan = planListing(query);
    const state = await this.deps.listing.state();
    // The total, and the size of every segment but the last (the last is what remains).
    const [total = 0, ...counted] = await this.deps.listing.countMatches([plan.filter, ...plan.segments.slice(0, -1).map((s) => s.filter)], state);
    const totals = [...counted, Math.max(0, total - counted.reduce((sum, n) => sum + n, 0))];
    if (query.cursor !== undefined) return this.listByCursor(query, query.cursor, plan, totals, state.entries);
    if (plan.window.skip >= total) return { ...toPage([], plan.window, total), next_cursor: null };
    const windows = windowPerSegment(plan.window, totals);
    const rows: EntryListingRow[] = [];
    let lastSegment = 0;
    for (const [index, segment] of plan.segments.entries()) {
      const window = windows[index] ?? { skip: 0, limit: 0 };
      if (window.limit <= 0) continue;
      rows.push(...(await this.deps.listing.findSegment(segment, window, totals[index] ?? 0, state)));
      lastSegment = index;
    }
    // A client may switch to cursors after any offset page: the cursor resumes after its last row.
    const served = plan.window.skip + rows.length;
    const last = rows[rows.length - 1];
    const segment = plan.segments[lastSegment];
    const position = last && segment ? positionAfter(last, lastSegment, segment, served) : undefined;
    const next = nextCursor(this.deps.cursors, { ...query }, { snapshotAt: this.now().getTime() }, position, served < total);
    return { ...toPage(rows.map((doc) => this.respond(doc)), plan.window, total), next_cursor: next };
  }

  /** A cursor page: index-ordered reads after the cursor's position, one row more than the page to know if more follow. */
  private async listByCursor(query: CatalogListQuery, cursor: string, plan: ListingPlan, totals: readonly number[], entries: number): Promise<EntryPage> {
    const total = totals.reduce((sum, n) => sum + n, 0);
    const limit = query.limit ?? DEFAULT_LIMIT;
    const walk = resumeWalk(this.deps.cursors, cursor, { ...query }, this.now().getTime());
    const position = walk.after === null ? null : readPosition(walk.after, plan.segments.length);
    if (walk.after !== null && !position) throw errors.validation('invalid cursor', [{ path: 'cursor', message: 'belongs to another query; start again with cursor=start' }]);
    // Pages after the first leave out rows changed since the first was read: such a row may have moved behind the cursor.
    const changedUpTo = position ? new Date(walk.snapshotAt) : null;
    const rows: Array<{ doc: EntryListingRow; segment: number }> = [];
    for (let index = position?.segment ?? 0; index < plan.segments.length && rows.length <= limit; index++) {
      const segment = plan.segments[index]!;
      const start = position && index === position.segment ? position : null;
      // Rows of this segment before the cursor: what was served, less the earlier segments (range hints aim past them).
      const depth = start ? Math.max(0, start.served - totals.slice(0, index).reduce((sum, n) => sum + n, 0)) : 0;
      const found = await this.deps.listing.findAfter({ segment, start, changedUpTo, limit: limit + 1 - rows.length, depth: { depth, segmentTotal: totals[index] ?? 0, entries } });
      rows.push(...found.map((doc) => ({ doc, segment: index })));
    }
    const page = rows.slice(0, limit);
    const before = position?.served ?? 0;
    const last = page[page.length - 1];
    const lastSegment = last ? plan.segments[last.segment] : undefined;
    const next = nextCursor(
      this.deps.cursors,
      { ...query },
      walk,
      last && lastSegment ? positionAfter(last.doc, last.segment, lastSegment, before + page.length) : undefined,
      rows.length > limit,
    );
    const window = { page: Math.floor(before / limit) + 1, limit, skip: before };
    return { ...toPage(page.map((row) => this.respond(row.doc)), window, total), next_cursor: next };
  }

  /** `?external_id=key:value`: the page object of the 0 or 1 entry holding the pair. */
  private async lookup(query: CatalogListQuery, id: { key: string; value: string }): Promise<EntryPage> {
    const limit = query.limit ?? DEFAULT_LIMIT;
    if (query.cursor !== undefined) {
      // Never a next page here: only a start cursor, or one of this query (there is none), gets a page.
      const walk = resumeWalk(this.deps.cursors, query.cursor, { ...query });
      if (walk.after !== null) return { ...toPage([], { page: 2, limit, skip: limit }, 0), next_cursor: null };
    }
    const doc = await this.deps.entries.findByExternalKey(externalKey(id.key, id.value));
    const window = { page: query.page ?? 1, limit, skip: ((query.page ?? 1) - 1) * limit };
    const total = doc ? 1 : 0;
    return { ...toPage(doc && window.skip === 0 ? [this.respond(doc)] : [], window, total), next_cursor: null };
  }



  /** A 409 naming the entry that already has this title and year, or one of these external ids; nothing when none does. */
  private async refuseIfTaken(doc: Pick<EntryDocument, 'title_key' | 'year' | 'external_keys'>): Promise<void> {
    const existing = await this.deps.entries.findDuplicate(doc.title_key, doc.year);
    if (existing) throw duplicateOf(existing);
    const holder = await this.deps.entries.findExternalKeyHolder(doc.external_keys ?? []);
    if (holder) throw externalIdTaken(holder);
  }

  private async externalIdConflict(keys: readonly string[], excludeId?: Id) {
    return externalIdTaken(await this.deps.entries.findExternalKeyHolder(keys, excludeId));
  }

  /** Each row's response is made once: a cached page's rows are the same objects request after request. */
  private respond(doc: EntryResponseSource): EntryResponse {
    const made = (doc as RespondedRow)[RESPONSE];
    if (made) return made;
    const response = toEntryResponse(this.deps.category, doc, this.deps.images ?? {});
    Object.defineProperty(doc, RESPONSE, { value: response });
    return response;
  }

  private async duplicateConflict(key: string, year: number | null, excludeId?: Id) {
    return duplicateOf(await this.deps.entries.findDuplicate(key, year, excludeId));
  }
}

/**
 * Where a row keeps its response: on the row, hidden from spreads and JSON, rather than in a WeakMap. V8's
 * young-generation collector keeps a WeakMap's entries alive, so every row read once (a search, an entry,
 * a patch) would survive into the old generation (bench/README.md, "Figures behind decisions").
 */
const RESPONSE = Symbol('catalog.response');
type RespondedRow = EntryResponseSource & { [RESPONSE]?: EntryResponse };

/** The in-process lock of one external id (`key:value`), shared by creations and patches that claim it. */
const externalIdLock = (key: string) => `external:${key}`;

const duplicateOf = (existing: Id | null) =>
  errors.conflict('an entry with this title and year already exists', existing ? { existing_id: existing.toHexString() } : undefined);

const externalIdTaken = (holder: Id | null) =>
  errors.conflict('an entry with one of these external ids already exists', holder ? { existing_id: holder.toHexString() } : undefined);
