import { errors } from '@mt/errors';
import { KeyedMutex } from '@mt/stores';
import { mongo } from 'mongoose';
import type { CategoryDefinition } from '../categories/categories';
import type { ListRepository } from '../lists/list.repository';
import { titleKey } from '../search/text-folding';
import type { AtomicRunner } from '../shared/atomic';
import { toPage, type Page } from '../shared/common.schemas';
import type { CatalogListQuery, EntryFieldsInput } from './catalog.schemas';
import { DuplicateEntryError, type CatalogRepository } from './catalog.repository';
import { entryPatchSet, newEntryDocument, toEntryResponse, type EntryDocument } from './entry.document';
import { planListing, windowPerSegment } from './listing-plan';

export type EntryResponse = Record<string, unknown>;

/** The shared catalog of one category: create, read, change (creator only) and search entries. */
export class CatalogService {
  private readonly creating = new KeyedMutex();

  constructor(
    private readonly category: CategoryDefinition,
    private readonly entries: CatalogRepository,
    private readonly lists: ListRepository,
    private readonly atomic: AtomicRunner,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async create(input: EntryFieldsInput & { title: string }, userId: string): Promise<EntryResponse> {
    const doc = newEntryDocument(this.category, input, userId, this.now());
    // Creations of one title and year take turns in this process: racing inserts of one unique key make
    // the store wait on, or deadlock with, each other. Whoever comes after the first finds it and gets a
    // 409 without a transaction.
    return this.creating.use(JSON.stringify([doc.title_key, doc.year]), async () => {
      const existing = await this.entries.findDuplicate(doc.title_key, doc.year);
      if (existing) throw duplicateOf(existing);
      try {
        // The unique index still decides duplicates (other instances); the count moves with the insert.
        await this.atomic.run((session) => this.entries.insert(doc, session));
      } catch (error) {
        if (error instanceof DuplicateEntryError) throw await this.duplicateConflict(doc.title_key, doc.year);
        throw error;
      }
      return this.respond(doc);
    });
  }

  async get(id: string): Promise<EntryResponse> {
    const doc = await this.entries.findById(new mongo.ObjectId(id));
    if (!doc) throw errors.notFound(`${this.category.id} entry not found`);
    return this.respond(doc);
  }

  async update(id: string, patch: EntryFieldsInput, userId: string): Promise<EntryResponse> {
    const objectId = new mongo.ObjectId(id);
    const set = entryPatchSet(this.category, patch, this.now());
    let updated: EntryDocument | null;
    try {
      updated = await this.atomic.run(async (session) => {
        const doc = await this.entries.updateIfCreatedBy(objectId, userId, set, session);
        // List entries keep the item's title key for their title sort: renamed in the same transaction.
        if (doc && patch.title !== undefined) await this.lists.renameItem(objectId, doc.title_key, session);
        return doc;
      });
    } catch (error) {
      if (!(error instanceof DuplicateEntryError)) throw error;
      const current = await this.entries.findById(objectId);
      const key = patch.title !== undefined ? titleKey(patch.title) : (current?.title_key ?? '');
      const year = patch.year !== undefined ? patch.year : (current?.year ?? null);
      throw await this.duplicateConflict(key, year, objectId);
    }
    if (updated) return this.respond(updated);
    const exists = await this.entries.findById(objectId);
    if (!exists) throw errors.notFound(`${this.category.id} entry not found`);
    throw errors.forbidden('only the user who created this entry may change it');
  }

  async list(query: CatalogListQuery): Promise<Page<EntryResponse>> {
    const plan = planListing(query);
    const state = await this.entries.state();
    // The total, and the size of every segment but the last (the last is what remains).
    const [total = 0, ...counted] = await this.entries.countMatches([plan.filter, ...plan.segments.slice(0, -1).map((s) => s.filter)], state);
    if (plan.window.skip >= total) return toPage([], plan.window, total);
    const totals = [...counted, Math.max(0, total - counted.reduce((sum, n) => sum + n, 0))];
    const windows = windowPerSegment(plan.window, totals);
    const rows: EntryDocument[] = [];
    for (const [index, segment] of plan.segments.entries()) {
      const window = windows[index] ?? { skip: 0, limit: 0 };
      if (window.limit > 0) rows.push(...(await this.entries.findSegment(segment, window, totals[index] ?? 0, state.entries)));
    }
    return toPage(rows.map((doc) => this.respond(doc)), plan.window, total);
  }

  private respond(doc: EntryDocument): EntryResponse {
    return toEntryResponse(this.category, doc);
  }

  private async duplicateConflict(key: string, year: number | null, excludeId?: mongo.ObjectId) {
    return duplicateOf(await this.entries.findDuplicate(key, year, excludeId));
  }
}

const duplicateOf = (existing: mongo.ObjectId | null) =>
  errors.conflict('an entry with this title and year already exists', existing ? { existing_id: existing.toHexString() } : undefined);
