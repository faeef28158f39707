import type { ImportItem } from '@mt/importers';
import type { Id } from '../../domain/ids';
import { externalIdKeys, type CategoryDefinition } from '../../domain/categories';
import { externalKey, titleKey } from '@mt/domain';
import { catalogSchemas } from '../catalog/catalog.schemas';
import type { CatalogStore } from '../../domain/ports/catalog-store.port';
import { newEntryDocument } from '../../domain/catalog-entry';
import type { EntryDocument } from '../../domain/records/catalog-entry.record';

/** How one row found its catalog entry: an existing one, one to create, or a reason it has none. */
export type RowMatch =
  | { kind: 'matched'; id: Id }
  | { kind: 'create'; doc: EntryDocument }
  | { kind: 'failed'; message: string };

const NEEDS_CATALOG_WRITE = 'no catalog entry matches this row (by external id, or by title and year); creating one needs the catalog:write scope';
const NO_TITLE = 'no catalog entry has these external ids, and the row has no title to create one';

const titleYearKey = (key: string, year: number | null) => JSON.stringify([key, year]);

/** Entry fields from a metadata provider for a row's external ids (features/providers), or null. */
export interface RowMetadata {
  fieldsFor(externalIds: Readonly<Record<string, string>>): Promise<Record<string, unknown> | null>;
}

/** Provider reads of one batch at once: a batch of unknown works never bursts a provider's rate limit. */
const PROVIDER_READS_AT_ONCE = 4;

/**
 * Entries the import creates that later rows must find: within one batch, and across a dry run's batches
 * (a dry run creates nothing, so the store cannot tell them).
 */
export class PlannedEntries {
  readonly byTitleYear = new Map<string, Id>();
  readonly byExternalKey = new Map<string, Id>();
  add(doc: EntryDocument): void {
    this.byTitleYear.set(titleYearKey(doc.title_key, doc.year), doc._id);
    for (const pair of doc.external_keys ?? []) this.byExternalKey.set(pair, doc._id);
  }
}

/**
 * Matches a batch of rows to catalog entries: an external id of the row, else the folded
 * title and year (the duplicate rule of POST), else a new entry built from the row — validated like a POST, created
 * by the importing user, without `isbn13` (derived). Two reads per batch (external keys, titles). Rows of
 * one batch that would create the same entry share it: the first creates, the others match it.
 */
export class ImportMatcher {
  constructor(
    private readonly category: CategoryDefinition,
    private readonly catalog: CatalogStore,
    /** Configured providers: a row to create that carries a provider id is created with its metadata. */
    private readonly metadata?: RowMetadata,
  ) {}

  async match(items: readonly ImportItem[], userId: string, canCreate: boolean, now: Date, planned = new PlannedEntries()): Promise<RowMatch[]> {
    const keysOf = (item: ImportItem) => Object.entries(item.external_ids).map(([key, value]) => externalKey(key, value as string));
    const titleKeys = items.map((item) => (item.title === null ? null : titleKey(item.title)));
    const [byKey, byTitle] = await Promise.all([
      this.catalog.findByExternalKeys([...new Set(items.flatMap(keysOf))]),
      this.catalog.findByTitleKeys([...new Set(titleKeys.filter((key): key is string => key !== null))]),
    ]);
    const external = new Map<string, Id>(planned.byExternalKey);
    for (const entry of byKey) for (const key of entry.external_keys ?? []) external.set(key, entry._id);
    const titled = new Map<string, Id>(planned.byTitleYear);
    for (const entry of byTitle) titled.set(titleYearKey(entry.title_key, entry.year), entry._id);

    const matches = items.map((item, index): RowMatch => {
      const found = keysOf(item)
        .map((key) => external.get(key))
        .find(Boolean);
      if (found) return { kind: 'matched', id: found };
      const key = titleKeys[index];
      const byTitleYear = key === null || key === undefined ? undefined : titled.get(titleYearKey(key, item.year));
      if (byTitleYear) return { kind: 'matched', id: byTitleYear };
      if (item.title === null) return { kind: 'failed', message: NO_TITLE };
      if (!canCreate) return { kind: 'failed', message: NEEDS_CATALOG_WRITE };
      const created = this.newEntry(item, userId, now);
      if (created.kind !== 'create') return created;
      // Later rows find it like an existing entry.
      planned.add(created.doc);
      titled.set(titleYearKey(created.doc.title_key, created.doc.year), created.doc._id);
      for (const pair of created.doc.external_keys ?? []) external.set(pair, created.doc._id);
      return created;
    });
    if (this.metadata) await this.withProviderMetadata(items, matches, this.metadata, userId, now, planned);
    return matches;
  }

  /** Rebuilds each entry to create whose row has a provider id from the provider's metadata (same id, so later rows still find it). */
  private async withProviderMetadata(items: readonly ImportItem[], matches: RowMatch[], metadata: RowMetadata, userId: string, now: Date, planned: PlannedEntries): Promise<void> {
    const pending = matches.flatMap((match, index) => (match.kind === 'create' ? [index] : []));
    for (let start = 0; start < pending.length; start += PROVIDER_READS_AT_ONCE) {
      await Promise.all(
        pending.slice(start, start + PROVIDER_READS_AT_ONCE).map(async (index) => {
          const item = items[index];
          const current = matches[index] as Extract<RowMatch, { kind: 'create' }>;
          const fields = item ? await metadata.fieldsFor(item.external_ids as Record<string, string>) : null;
          if (!item || !fields) return;
          const rebuilt = this.newEntry({ ...item, ...fields, external_ids: { ...(fields['external_ids'] as object), ...item.external_ids } } as ImportItem, userId, now);
          if (rebuilt.kind !== 'create') return;
          rebuilt.doc._id = current.doc._id;
          matches[index] = rebuilt;
          planned.add(rebuilt.doc);
        }),
      );
    }
  }

  private newEntry(item: ImportItem, userId: string, now: Date): RowMatch {
    const input: Record<string, unknown> = { title: item.title, year: item.year };
    if (item.description !== undefined) input['description'] = item.description;
    if (item.genres !== undefined) input['genres'] = item.genres;
    const provided = item as { poster_url?: unknown };
    if (typeof provided.poster_url === 'string') input['poster_url'] = provided.poster_url;
    const fields = item as unknown as Record<string, unknown>;
    for (const name of Object.keys(this.category.fields)) if (fields[name] !== undefined) input[name] = fields[name];
    const keys = externalIdKeys(this.category);
    // Derived keys (books' isbn13) are read-only: the catalog computes them from the own fields.
    const ids = Object.fromEntries(Object.entries(item.external_ids).filter(([key]) => keys[key] && !keys[key].derive));
    if (Object.keys(ids).length) input['external_ids'] = ids;
    const parsed = catalogSchemas(this.category).CreateEntry.safeParse(input);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return { kind: 'failed', message: `cannot create the catalog entry: ${issue ? `${issue.path.join('.') || 'entry'}: ${issue.message}` : 'invalid'}` };
    }
    return { kind: 'create', doc: newEntryDocument(this.category, parsed.data as Parameters<typeof newEntryDocument>[1], userId, now) };
  }
}
